import Foundation
import Testing
@testable import LearnModel
import TeamsketchTestSupport
@testable import LearnSession
@testable import LearnSketch

@Suite struct SessionCodecTests {
    func roundTrip(_ m: SessionMessage) throws -> SessionMessage? {
        var d = FrameDecoder()
        d.append(m.frame())
        let out = try d.next()
        #expect(d.bufferedByteCount == 0)
        return out
    }

    @Test func everyKindRoundTrips() throws {
        var g = SessionMessageGenerator(seed: 1)
        for kind in 0..<SessionMessageGenerator.kinds {
            for _ in 0..<50 {
                let m = g.message(kind: kind)
                #expect(try roundTrip(m) == m, "kind \(kind)")
            }
        }
    }

    @Test func randomStreamsDecodeInAnyChunking() throws {
        var g = SessionMessageGenerator(seed: 2)
        for round in 0..<40 {
            let messages = (0..<30).map { _ in g.message() }
            let bytes = messages.flatMap { $0.frame() }
            var d = FrameDecoder()
            var out: [SessionMessage] = []
            var i = 0
            while i < bytes.count {
                // Chunks from 1 byte to a few frames, as TCP may deliver them.
                let n = 1 + g.int(round % 2 == 0 ? 7 : 4000)
                d.append(bytes[i..<min(bytes.count, i + n)])
                i += n
                out += try d.drain()
            }
            try d.finish()
            #expect(out == messages)
        }
    }

    @Test func frameLayoutIsLengthVersionTypePayload() {
        #expect(SessionMessage.bye.frame() == [0, 0, 0, 2, 1, 11])
        #expect(SessionMessage.ping(300).frame() == [0, 0, 0, 4, 1, 9, 0xAC, 0x02])
        #expect(SessionMessage.memberLeft(MemberLeft(member: 3)).frame() == [0, 0, 0, 3, 1, 8, 3])
    }

    @Test func segmentsAreDeltaEncodedAndSmall() {
        // A realistic batch: 3 segments of a stroke moving a few units each.
        var p = Point(800, 500)
        var segs: [CubicSegment] = []
        for i in 0..<3 {
            let c1 = p + Point(1.5, 0.7), c2 = c1 + Point(1.4, 0.9 + Double(i) * 0.1)
            let end = c2 + Point(1.3, 1.1)
            segs.append(CubicSegment(c1: c1, c2: c2, end: end))
            p = end
        }
        let batch = StrokeSegments(stamp: OpStamp(sender: 1, seq: 42), strokeID: UUID(), base: WirePoint(Point(800, 500)),
                                   segments: segs.map(WireSegment.init))
        let frame = SessionMessage.strokeSegments(batch).frame()
        // Header 6 + stamp 2 + span 1 + id 16 + base 6 + count 1 + 18 deltas of ≤ 2 bytes.
        #expect(frame.count <= 6 + 2 + 1 + 16 + 6 + 1 + 36)
    }

    @Test func quantisationIsStableAndTiny() {
        var rng = SplitMix64(seed: 3)
        for _ in 0..<1000 {
            let p = Point(rng.nextDouble(in: -100...1700), rng.nextDouble(in: -100...1100))
            let q = WirePoint(p)
            #expect(abs(q.point.x - p.x) <= 1.0 / 128 + 1e-12)
            #expect(WirePoint(q.point) == q)
        }
        let d = Date(timeIntervalSince1970: 1_750_000_123.4567)
        #expect(WireTime(WireTime(d).date) == WireTime(d))
        for pen in PenColor.allCases { #expect(RGBA8(pen.rgba).rgba == pen.rgba) }
        #expect(WirePoint(Point(.nan, .infinity)) == WirePoint(x: 0, y: 0))
        #expect(WirePoint(Point(1e300, -1e300)) == WirePoint(x: .max, y: .min))
    }

    @Test func unknownTypesAreSkipped() throws {
        var d = FrameDecoder()
        d.append([0, 0, 0, 5, 1, 200, 9, 9, 9])  // type 200 from a newer peer
        d.append(SessionMessage.ping(7).frame())
        #expect(try d.next() == .ping(7))
        #expect(d.skippedFrames == 1)
    }

    @Test func trailingPayloadBytesAreIgnoredForGrowth() throws {
        var frame = SessionMessage.ping(7).frame()
        frame += [1, 2, 3]
        frame[3] += 3
        var d = FrameDecoder()
        d.append(frame)
        #expect(try d.next() == .ping(7))
    }

    @Test func lengthsBelowTwoAreRejected() {
        var d = FrameDecoder()
        d.append([0, 0, 0, 1, 1])
        #expect(throws: FrameError.lengthTooShort(1)) { try d.next() }
        // Once out of step, always out of step.
        d.append(SessionMessage.bye.frame())
        #expect(throws: FrameError.lengthTooShort(1)) { try d.next() }
    }

    @Test func oversizedLengthIsRejectedBeforeAnyPayloadArrives() {
        var d = FrameDecoder()
        d.append([0x7f, 0xff, 0xff, 0xff])
        #expect(throws: FrameError.frameTooLarge(0x7fff_ffff)) { try d.next() }
        var e = FrameDecoder()
        let cap = UInt32(SessionLimits.maxFrameLength) + 1
        e.append([UInt8(cap >> 24), UInt8(cap >> 16 & 0xff), UInt8(cap >> 8 & 0xff), UInt8(cap & 0xff)])
        #expect(throws: FrameError.frameTooLarge(cap)) { try e.next() }
        #expect(e.bufferedByteCount == 0)
    }

    @Test func frameAtTheCapIsAccepted() throws {
        // An unknown type of exactly the cap: waited for, then skipped.
        let n = SessionLimits.maxFrameLength
        var d = FrameDecoder()
        d.append([UInt8(n >> 24), UInt8(n >> 16 & 0xff), UInt8(n >> 8 & 0xff), UInt8(n & 0xff), 1, 250])
        d.append([UInt8](repeating: 0, count: n - 3))
        #expect(try d.next() == nil)
        d.append([0])
        d.append(SessionMessage.bye.frame())
        #expect(try d.next() == .bye)
    }

    @Test func wrongVersionIsRejected() {
        var d = FrameDecoder()
        d.append([0, 0, 0, 2, 2, 11])
        #expect(throws: FrameError.unsupportedVersion(2)) { try d.next() }
    }

    @Test func truncatedStreamIsReportedAtTheEnd() throws {
        let frame = SessionMessage.ping(1234).frame()
        var d = FrameDecoder()
        d.append(frame.dropLast(1))
        #expect(try d.next() == nil)
        #expect(throws: FrameError.truncated(missingBytes: 1)) { try d.finish() }
        var e = FrameDecoder()
        e.append([0, 0])
        #expect(throws: FrameError.truncated(missingBytes: 2)) { try e.finish() }
    }

    @Test func malformedPayloadsAreTypedErrors() {
        func decode(_ bytes: [UInt8]) -> FrameError? {
            var d = FrameDecoder()
            d.append(bytes)
            do { _ = try d.next(); return nil } catch { return error }
        }
        func isMalformed(_ e: FrameError?) -> Bool { if case .malformedPayload = e { true } else { false } }
        // A ping whose varint runs past the payload.
        #expect(isMalformed(decode([0, 0, 0, 3, 1, 9, 0x80])))
        // A varint of eleven bytes.
        #expect(isMalformed(decode([0, 0, 0, 13, 1, 9] + [UInt8](repeating: 0xff, count: 10) + [1])))
        // A hello whose name claims a billion bytes: rejected without allocating.
        var hello = WireWriter()
        hello.varint(1); hello.uuid(UUID()); hello.varint(UInt64(1) << 30)
        let body: [UInt8] = [1, 1] + hello.bytes
        #expect(isMalformed(decode([0, 0, 0, UInt8(body.count)] + body)))
        // Invalid UTF-8 in a name.
        var bad = WireWriter()
        bad.varint(1); bad.uuid(UUID()); bad.varint(2); bad.raw([0xC3, 0x28]); bad.u8(0); bad.u8(0)
        let badBody: [UInt8] = [1, 1] + bad.bytes
        #expect(isMalformed(decode([0, 0, 0, UInt8(badBody.count)] + badBody)))
        // A segment count beyond what the payload could hold.
        var segs = WireWriter()
        segs.stamp(OpStamp(sender: 1, seq: 1)); segs.varint(1); segs.uuid(UUID()); segs.point(WirePoint(x: 0, y: 0))
        segs.varint(16_000)
        let segBody: [UInt8] = [1, 17] + segs.bytes
        #expect(isMalformed(decode([0, 0, 0, UInt8(segBody.count)] + segBody)))
        // A delta that leaves the Int32 range.
        var far = WireWriter()
        far.stamp(OpStamp(sender: 1, seq: 1)); far.varint(1); far.uuid(UUID()); far.point(WirePoint(x: .max, y: 0))
        far.varint(1); for _ in 0..<6 { far.zigzag(1) }
        let farBody: [UInt8] = [1, 17] + far.bytes
        #expect(isMalformed(decode([0, 0, 0, UInt8(farBody.count)] + farBody)))
        // Seq 0 and a span longer than the seq.
        var zero = WireWriter()
        zero.varint(1); zero.varint(0); zero.uuid(UUID()); zero.zigzag(0)
        let zeroBody: [UInt8] = [1, 18] + zero.bytes
        #expect(isMalformed(decode([0, 0, 0, UInt8(zeroBody.count)] + zeroBody)))
        // Bad enum values: role, guides, end reason.
        #expect(isMalformed(decode([0, 0, 0, 4, 1, 7, 9, 0])))
    }

    @Test func randomMutationsNeverCrashAndValidOutputRoundTrips() {
        var g = SessionMessageGenerator(seed: 4)
        for _ in 0..<3000 {
            var bytes = (0..<(1 + g.int(3))).flatMap { _ in g.message().frame() }
            SessionFuzzing.mutate(&bytes, &g.rng)
            SessionFuzzing.check(bytes)
        }
    }
}

/// What the fuzz target checks, shared with the corpus test: decoding any
/// bytes either fails with a FrameError or yields messages that encode and
/// decode to themselves.
enum SessionFuzzing {
    static func check(_ bytes: [UInt8]) {
        var d = FrameDecoder()
        d.append(bytes)
        while true {
            let m: SessionMessage?
            do { m = try d.next() } catch { return }
            guard let m else { return }
            var again = FrameDecoder()
            again.append(m.frame())
            let back = try? again.next()
            #expect(back == m, "re-encoding changed \(m)")
        }
    }

    static func mutate(_ bytes: inout [UInt8], _ rng: inout SplitMix64) {
        for _ in 0..<(1 + rng.nextInt(below: 4)) {
            guard !bytes.isEmpty else { bytes = [UInt8(truncatingIfNeeded: rng.next())]; continue }
            let i = rng.nextInt(below: bytes.count)
            switch rng.nextInt(below: 6) {
            case 0: bytes[i] ^= UInt8(1 << rng.nextInt(below: 8))
            case 1: bytes[i] = UInt8(truncatingIfNeeded: rng.next())
            case 2: bytes.removeSubrange(i..<min(bytes.count, i + 1 + rng.nextInt(below: 8)))
            case 3: bytes.insert(contentsOf: (0..<(1 + rng.nextInt(below: 8))).map { _ in UInt8(truncatingIfNeeded: rng.next()) }, at: i)
            case 4: bytes[i] = [0, 0x7f, 0x80, 0xff][rng.nextInt(below: 4)]
            default: bytes = Array(bytes.prefix(i))
            }
        }
    }
}
