import ArgumentParser
import Foundation
import LearnModel
import LearnStore

/// `TeamsketchTools bench-store --dir D`: what saving one finished stroke
/// costs in a store file in D, with each durability mode, so the price of
/// surviving a power cut is a number in docs/PERFORMANCE.md. Prints
/// `store_append_<mode>: MEDIAN ms` lines.
struct StoreBenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench-store",
        abstract: "Benchmark saving one stroke per durability mode.",
        shouldDisplay: false)

    @Option(help: "Folder for the store files (on the disk to measure).")
    var dir: String

    @Option(help: "Strokes saved per mode (the median is printed).")
    var strokes = 300

    func validate() throws {
        guard (10...100_000).contains(strokes) else { throw ValidationError("--strokes must be 10…100000.") }
    }

    func run() throws {
        let generated = SketchGenerator(seed: 2).strokes(count: strokes, pointsPerStroke: 60)
        for mode in LocalStore.Durability.allCases {
            let path = dir + "/bench-store-\(mode.rawValue).sqlite"
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
            let store = try LocalStore(path: path, durability: mode)
            let meta = SketchMeta(name: "bench")
            try store.createSketch(meta)
            var samples: [Double] = []
            for stroke in generated {
                samples.append(try Stopwatch.seconds { () throws in try store.append(.addStroke(stroke), to: meta.id) })
            }
            try store.close()
            samples.sort()
            print(String(format: "store_append_%@: %.3f ms", mode.rawValue == "powerCut" ? "power_safe" : "crash_safe",
                         samples[samples.count / 2] * 1000))
            fflush(nil)
        }
    }
}
