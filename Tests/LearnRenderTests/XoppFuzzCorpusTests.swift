import Foundation
import LearnModel
import Testing
@testable import LearnRender

/// The seeds of the `.xopp` fuzz target (Tests/Fuzz/run.sh xopp), in
/// Tests/Fuzz/corpus/xopp/: a file as Xournal++ 1.1.3 writes it, gzipped and
/// plain, our own export, two gzip members back to back, and Xournal++'s
/// stroke styles (fill, pressure, highlighter, dashes: Tests/xopp/styles.xopp).
/// `FUZZ_WRITE_CORPUS=1 swift test --filter FuzzCorpus` rewrites them.
@Suite struct XoppFuzzCorpusTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../Fuzz/corpus/xopp").standardizedFileURL

    static func seeds() throws -> [(name: String, bytes: [UInt8])] {
        let xournal = Array(XournalppCompatibilityTests.xournal113.utf8)
        let doc = SketchGenerator(seed: 3).document(strokes: 4, pointsPerStroke: 10, name: "Fuchs & Hase <3>",
                                                   guides: .lined)
        let ours = XoppFormat.export(doc)
        let half = xournal.count / 2
        return [
            ("xournalpp-1.1.3", try Gzip.compress(xournal)),
            ("xournalpp-1.1.3-plain", xournal),
            ("teamsketch-export", try XoppFile.data(doc)),
            ("teamsketch-export-plain", ours),
            ("two-members", try Gzip.compress(Array(xournal[..<half])) + Gzip.compress(Array(xournal[half...]))),
            ("styles-plain", try FileBytes.read(XoppZipTests.path("styles.xopp"))),
        ]
    }

    @Test func corpusIsPresent() throws {
        let seeds = try Self.seeds()
        if ProcessInfo.processInfo.environment["FUZZ_WRITE_CORPUS"] == "1" {
            try FileManager.default.createDirectory(at: Self.folder, withIntermediateDirectories: true)
            for seed in seeds {
                try Data(seed.bytes).write(to: Self.folder.appendingPathComponent(seed.name + ".bin"))
            }
        }
        for seed in seeds {
            let url = Self.folder.appendingPathComponent(seed.name + ".bin")
            let bytes = try? Data(contentsOf: url)
            #expect(bytes != nil, "run with FUZZ_WRITE_CORPUS=1 to write \(url.lastPathComponent)")
            // Every seed opens: a seed the parser refuses teaches the fuzzer little.
            if let bytes { #expect(throws: Never.self) { try XoppFile.decode([UInt8](bytes), path: seed.name) } }
        }
    }
}
