import Foundation
import Testing
@testable import LearnModel
import TeamsketchTestSupport

/// The fuzz corpus in Tests/Fuzz/corpus/ goes through the decoder on every
/// `swift test`, with random mutations of each file; libFuzzer
/// (Tests/Fuzz/run.sh) searches much further by hand or in CI.
///
/// `SESSION_FUZZ_WRITE_CORPUS=1 swift test --filter SessionFuzzCorpus`
/// rewrites the corpus from real frames.
@Suite(.serialized) struct SessionFuzzCorpusTests {
    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../Fuzz/corpus").standardizedFileURL

    static func seeds() -> [(name: String, bytes: [UInt8])] {
        var g = SessionMessageGenerator(seed: 2024)
        var out: [(String, [UInt8])] = []
        for kind in 0..<SessionMessageGenerator.kinds {
            for n in 0..<2 {
                let m = g.message(kind: kind)
                out.append(("kind\(kind)-\(n)", m.frame()))
            }
        }
        // Streams of several frames, as a connection carries them.
        for n in 0..<6 {
            out.append(("stream-\(n)", (0..<(2 + g.int(5))).flatMap { _ in g.message().frame() }))
        }
        // The edges the decoder must refuse or skip.
        out.append(("unknown-type", [0, 0, 0, 4, 1, 250, 1, 2] + SessionMessage.bye.frame()))
        out.append(("oversized-length", [0x00, 0x10, 0x00, 0x01, 1, 1]))
        out.append(("short-length", [0, 0, 0, 1, 1]))
        out.append(("wrong-version", [0, 0, 0, 2, 7, 11]))
        out.append(("truncated", Array(SessionMessage.ping(99_999).frame().dropLast())))
        return out
    }

    @Test func corpusIsPresentAndDecodesSafely() throws {
        if ProcessInfo.processInfo.environment["SESSION_FUZZ_WRITE_CORPUS"] == "1" {
            try FileManager.default.createDirectory(at: Self.corpus, withIntermediateDirectories: true)
            for seed in Self.seeds() {
                try Data(seed.bytes).write(to: Self.corpus.appendingPathComponent(seed.name + ".bin"))
            }
        }
        let files = try FileManager.default.contentsOfDirectory(at: Self.corpus, includingPropertiesForKeys: nil)
        #expect(files.count >= 40, "run with SESSION_FUZZ_WRITE_CORPUS=1 to write the corpus")
        var rng = SplitMix64(seed: 7)
        for file in files {
            let bytes = [UInt8](try Data(contentsOf: file))
            SessionFuzzing.check(bytes)
            for _ in 0..<200 {
                var mutated = bytes
                SessionFuzzing.mutate(&mutated, &rng)
                SessionFuzzing.check(mutated)
            }
        }
    }

    @Test func corpusFramesOfEveryKindDecode() throws {
        // The seeds are real frames: each decodes to exactly what was encoded.
        var g = SessionMessageGenerator(seed: 2024)
        for kind in 0..<SessionMessageGenerator.kinds {
            for n in 0..<2 {
                let m = g.message(kind: kind)
                let url = Self.corpus.appendingPathComponent("kind\(kind)-\(n).bin")
                var d = FrameDecoder()
                d.append([UInt8](try Data(contentsOf: url)))
                #expect(try d.next() == m, "corpus file \(url.lastPathComponent) is stale")
            }
        }
    }
}
