// libFuzzer target for what discovery reads off the network: beacon
// datagrams (BeaconPacket) and DNS-SD TXT records (DiscoveryTXT).
//
// The whole input is one datagram; the same bytes are also read as a TXT
// record (the first two bytes a port, then length-prefixed entries, as
// Avahi hands them over). Anything accepted must survive being announced
// again: a decoded beacon re-encodes to a packet that decodes to itself,
// within the packet size limit, and so does a TXT announcement.
import Foundation
import LearnModel

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDiscovery(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    if let packet = try? BeaconPacket(decoding: bytes) {
        requireBeaconRoundTrip(packet)
    }
    var input = FuzzInput(data, size)
    let port = input.u16()
    var entries: [[UInt8]] = []
    while !input.isEmpty { entries.append(input.take(Int(input.byte()))) }
    if let announcement = DiscoveryTXT.announcement(from: entries, port: port) {
        let again = DiscoveryTXT.announcement(from: DiscoveryTXT.entries(for: announcement), port: port)
        guard again == announcement else { fatalError("a TXT announcement changed when announced again") }
        requireBeaconRoundTrip(BeaconPacket(kind: .announce, announcement: announcement))
    }
    return 0
}

private func requireBeaconRoundTrip(_ packet: BeaconPacket) {
    let encoded = packet.encoded()
    let back: BeaconPacket
    do {
        back = try BeaconPacket(decoding: encoded)
    } catch {
        fatalError("an accepted beacon re-encodes to a packet that is refused (\(error))")
    }
    guard back == packet else { fatalError("a beacon changed when announced again") }
}
