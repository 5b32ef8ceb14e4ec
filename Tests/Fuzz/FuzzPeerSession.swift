// libFuzzer target for PeerSession, a joiner's pure state machine.
//
// The input is a script (see FuzzInput): the connection coming and going,
// messages from the host (each through the real frame decoder, so any
// sequence a hostile or buggy host could send) and the pupil's own pen.
// Whatever the script, the peer must not trap, must keep no stroke past the
// segment limit, and everything it sends must arrive unchanged at the host.
import Foundation
import LearnModel

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPeerSession(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    let flags = input.byte()
    var peer = PeerSession(peerID: fuzzUUID(100), name: "Pupil", role: flags & 1 == 0 ? .drawer : .observer,
                           resumeToken: flags & 2 == 0 ? nil : ResumeToken(high: 0x7465616D, low: 1))
    var now = fuzzEpoch
    while !input.isEmpty {
        let effects: [PeerSession.Effect]
        switch input.byte() % 9 {
        case 0: effects = peer.connected()
        case 1: effects = peer.connectionLost(reason: "fuzz")
        case 2: effects = peer.hostUnreachable(now: now)
        case 3:
            guard let message = input.message() else { continue }
            effects = peer.receive(message)
        case 4:
            let color = RGBA(hex: UInt32(input.byte()) << 16 | UInt32(input.byte()))
            effects = peer.beginStroke(id: fuzzUUID(input.byte() % 8), color: color,
                                       width: Double(input.byte()) / 4, start: fuzzPoint(&input), at: now)
        case 5:
            let id = fuzzUUID(input.byte() % 8)
            effects = peer.addSegments(fuzzSegments(&input), to: id)
        case 6: effects = peer.endStroke(fuzzUUID(input.byte() % 8), at: now)
        case 7: effects = peer.erase(fuzzUUID(input.byte() % 8), at: now)
        default:
            now = now.addingTimeInterval(Double(input.u16()) / 16)
            continue
        }
        for effect in effects {
            if case .send(let message) = effect { requireWireRoundTrip(message, from: "the peer") }
        }
        for stroke in peer.live where stroke.segments.count > SessionLimits.maxSegmentsPerStroke {
            fatalError("live stroke \(stroke.id) has \(stroke.segments.count) segments")
        }
    }
    return 0
}
