import Foundation
import LearnModel

/// Reads a fuzz input as a script: small numbers, byte strings and whole
/// session frames, one after the other. Reading past the end gives zeros and
/// empty strings, so every input is a valid script and the fuzzer never
/// wastes time on inputs a target would refuse to run.
struct FuzzInput {
    private let bytes: [UInt8]
    private var at = 0

    init(_ data: UnsafePointer<UInt8>?, _ size: Int) {
        bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    }

    var isEmpty: Bool { at >= bytes.count }

    mutating func byte() -> UInt8 {
        guard at < bytes.count else { return 0 }
        defer { at += 1 }
        return bytes[at]
    }

    /// Big-endian, like the wire format, so seeds read naturally in a hex dump.
    mutating func u16() -> Int { Int(byte()) << 8 | Int(byte()) }

    mutating func take(_ n: Int) -> [UInt8] {
        let end = min(bytes.count, at + n)
        defer { at = end }
        return at < end ? Array(bytes[at..<end]) : []
    }

    /// A frame prefixed by its length (u16), decoded as the transport would;
    /// nil when those bytes are no valid frame. Targets that drive a state
    /// machine take their messages from here, so everything they see has
    /// been through the real decoder.
    mutating func message() -> SessionMessage? {
        var decoder = FrameDecoder()
        decoder.append(take(u16()))
        return (try? decoder.next()) ?? nil
    }
}

/// The script's encoding of one message, for writing seeds.
func scripted(_ message: SessionMessage) -> [UInt8] {
    let frame = message.frame()
    precondition(frame.count <= 0xFFFF, "seed frames are small")
    return [UInt8(frame.count >> 8), UInt8(frame.count & 0xFF)] + frame
}

/// What a session sends must be exactly what the other side decodes: a
/// message that does not survive encoding, or does not fit a frame, is a bug
/// in whoever produced it.
func requireWireRoundTrip(_ message: SessionMessage, from who: String) {
    let frame = message.frame()
    guard frame.count <= SessionLimits.maxFrameLength + 4 else {
        fatalError("\(who) produced a \(frame.count)-byte frame, over the frame limit")
    }
    var decoder = FrameDecoder()
    decoder.append(frame)
    let back: SessionMessage?
    do {
        back = try decoder.next()
    } catch {
        fatalError("\(who) produced a frame its own decoder refuses (\(error)): \(message)")
    }
    guard back == message else { fatalError("\(who) produced a message that changes on the wire: \(message)") }
}

/// Ids the scripts pick by a small number, so a fuzzer can hit the same
/// stroke or member again.
func fuzzUUID(_ n: UInt8) -> UUID {
    UUID(uuid: (0xF0, 0, 0, 0, 0, 0, 0x40, 0, 0x80, 0, 0, 0, 0, 0, 0, n))
}

/// A point from two bytes, spread over a canvas and a little beyond it.
func fuzzPoint(_ input: inout FuzzInput) -> Point {
    Point(Double(input.byte()) * 8 - 64, Double(input.byte()) * 8 - 64)
}

func fuzzSegments(_ input: inout FuzzInput) -> [CubicSegment] {
    (0..<Int(input.byte() % 8)).map { _ in
        CubicSegment(c1: fuzzPoint(&input), c2: fuzzPoint(&input), end: fuzzPoint(&input))
    }
}

/// Fixed moments, so a crash reproduces from its input alone.
let fuzzEpoch = Date(timeIntervalSince1970: 1_750_000_000)
