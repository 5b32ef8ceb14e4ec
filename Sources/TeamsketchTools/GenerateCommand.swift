import ArgumentParser
import LearnStore
import LearnModel
import LearnRender
import TeamsketchCommandSupport

/// `TeamsketchTools generate --strokes 5000 --points 60 --seed 1 OUT` —
/// a deterministic scribble sketch for benchmarks and tests, written in any
/// export format.
struct GenerateCommand: ParsableCommand {
    enum Shape: String, ExpressibleByArgument, CaseIterable {
        case polyline, smoothed
    }

    static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract: "Write a generated sketch (for benchmarks and tests).",
        discussion: """
            The same seed always gives the same sketch. 'polyline' keeps every generated \
            point as a straight piece, so a .xopp holds exactly --points points per stroke; \
            'smoothed' runs the samples through the app's stroke smoothing.
            """)

    @Option(help: "Number of strokes.")
    var strokes = 5000

    @Option(help: "Points per stroke.")
    var points = 60

    @Option(help: "Random seed.")
    var seed: UInt64 = 1

    @Option(help: "How points become segments: polyline or smoothed.")
    var shape: Shape = .polyline

    @Option(help: "Line guides.")
    var guides: LineGuides = .none

    @Argument(help: ArgumentHelp("The file to write: .xopp, .teamsketch, .png, .pdf or .svg.", valueName: "OUT"))
    var output: String

    @Option(help: "Also save the sketch in this store file, as if drawn there (its changes wait to be synced).")
    var store: String?

    func validate() throws {
        guard strokes >= 0 else { throw ValidationError("--strokes must be 0 or more.") }
        guard points >= 1 else { throw ValidationError("--points must be at least 1.") }
        guard SketchFileKind(path: output) != nil else {
            throw ValidationError(SketchIOError.unknownExtension(path: output, allowed: SketchFileKind.exportable)
                .description)
        }
    }

    func run() throws {
        let doc = SketchGenerator(seed: seed).document(
            strokes: strokes, pointsPerStroke: points, shape: shape == .polyline ? .polyline : .smoothed,
            name: "Generated \(strokes)×\(points) seed \(seed)", guides: guides)
        do throws(SketchIOError) {
            try SketchExport.write(doc, to: output)
        } catch {
            throw CLIFailure(message: error.description)
        }
        if let store { try LocalStore(path: store).saveSketch(doc) }
    }
}
