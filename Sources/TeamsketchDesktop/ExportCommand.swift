import ArgumentParser
import LearnModel
import LearnRender
import TeamsketchCommandSupport

/// `TeamsketchDesktop export [--width PX] INPUT OUTPUT` — headless; scripts
/// and the benchmarks rely on exactly this form.
struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Export a sketch as PNG, PDF, SVG, Xournal++ (.xopp) or Teamsketch file.",
        discussion: """
            INPUT is a .xopp file, a .teamsketch file, or the name of a sketch in this \
            device's sketch store (which is only read, never changed). The format is taken \
            from OUTPUT's extension. No display is needed.
            """)

    @Option(help: ArgumentHelp("PNG width in pixels; the height keeps the canvas's aspect. Default: the canvas width (1600).",
                               valueName: "PX"))
    var width: Int?

    @Argument(help: ArgumentHelp("A .xopp file, a .teamsketch file, or the name of a stored sketch.",
                                 valueName: "INPUT"))
    var input: String

    @Argument(help: ArgumentHelp("The file to write: .png, .pdf, .svg, .xopp or .teamsketch.",
                                 valueName: "OUTPUT"))
    var output: String

    func validate() throws {
        if let width, !(1...SketchExport.maxPixelWidth).contains(width) {
            throw ValidationError("--width must be between 1 and \(SketchExport.maxPixelWidth) pixels, not \(width).")
        }
        guard SketchFileKind(path: output) != nil else {
            throw ValidationError(SketchIOError.unknownExtension(path: output, allowed: SketchFileKind.exportable)
                .description)
        }
    }

    func run() throws {
        do throws(SketchIOError) {
            let doc = try SketchSource.load(input)
            try SketchExport.write(doc, to: output, width: width)
        } catch {
            throw CLIFailure(message: error.description)
        }
    }
}
