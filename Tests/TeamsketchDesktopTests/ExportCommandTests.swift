import Foundation
import LearnModel
import TeamsketchTestSupport
import Testing
@testable import TeamsketchDesktop
import LearnRender

/// The built executable, run as scripts run it: exit status and messages.
@Suite struct ExportCommandTests {
    private let exe = Run.appExecutable

    private func run(_ arguments: [String], home: String) async throws -> ProcessResult {
        // A private XDG data folder, so a stored-sketch lookup never touches the real store.
        try await Run.program(exe, arguments, environment: ["XDG_DATA_HOME": home, "HOME": home])
    }

    @Test func executableIsBuiltNextToTheTests() {
        #expect(FileManager.default.isExecutableFile(atPath: exe), "expected the app at \(exe)")
    }

    @Test(arguments: ["png", "pdf", "svg", "xopp", "teamsketch"])
    func exportsAXoppFileToEachFormat(ext: String) async throws {
        let dir = TempDir()
        let input = dir.file("in.xopp"), output = dir.file("out.\(ext)")
        try XoppFile.write(Fixture.sketch(), to: input)
        let r = try await run(["export", input, output], home: dir.path)
        #expect(r.status == 0, "stderr: \(r.stderr)")
        #expect(r.stderr.isEmpty)
        let bytes = try FileBytes.read(output)
        switch ext {
        case "png": #expect(try CairoImage(png: bytes).width == 1600)
        case "pdf": #expect(bytes.hasPrefix("%PDF-"))
        case "svg": #expect(String(decoding: bytes, as: UTF8.self).contains("<svg"))
        default: #expect(try SketchImport.read(output).strokes.count == 3)
        }
    }

    @Test func widthOptionSetsThePNGSize() async throws {
        let dir = TempDir()
        let input = dir.file("in.teamsketch"), output = dir.file("small.png")
        try SketchExport.write(Fixture.sketch(), to: input)
        let r = try await run(["export", "--width", "320", input, output], home: dir.path)
        #expect(r.status == 0, "stderr: \(r.stderr)")
        let image = try CairoImage(png: FileBytes.read(output))
        #expect((image.width, image.height) == (320, 200))
    }

    @Test func missingInputFileFailsWithAClearMessage() async throws {
        let dir = TempDir()
        let r = try await run(["export", dir.file("nope.xopp"), dir.file("out.png")], home: dir.path)
        #expect(r.status != 0)
        #expect(r.stderr.contains("Cannot read \(dir.file("nope.xopp")): no such file or directory."))
        #expect(!FileBytes.exists(dir.file("out.png")))
    }

    @Test func unknownOutputExtensionFailsBeforeReadingAnything() async throws {
        let dir = TempDir()
        let r = try await run(["export", dir.file("nope.xopp"), dir.file("out.gif")], home: dir.path)
        #expect(r.status != 0)
        #expect(r.stderr.contains("Unknown file type for \(dir.file("out.gif")): use one of .png, .pdf, .svg, .xopp, .teamsketch."))
    }

    @Test func garbageInputIsNotASketch() async throws {
        let dir = TempDir()
        let input = dir.file("garbage.teamsketch")
        try FileBytes.write(Array("{\"hello\": 1}".utf8), to: input)
        let r = try await run(["export", input, dir.file("out.pdf")], home: dir.path)
        #expect(r.status != 0)
        #expect(r.stderr.contains("Cannot open \(input) as a sketch: it is not a Teamsketch file."))
    }

    @Test func badWidthIsAUsageError() async throws {
        let dir = TempDir()
        let r = try await run(["export", "--width", "0", "a.xopp", dir.file("out.png")], home: dir.path)
        #expect(r.status != 0)
        #expect(r.stderr.contains("--width must be between 1 and 16384 pixels, not 0."))
    }

    @Test func missingArgumentsShowUsage() async throws {
        let dir = TempDir()
        let r = try await run(["export", "only-one.xopp"], home: dir.path)
        #expect(r.status != 0)
        #expect(r.stderr.contains("Usage: TeamsketchDesktop export [--width <PX>] <INPUT> <OUTPUT>"))
    }

    @Test func unknownSketchNameWithoutAStoreSaysSo() async throws {
        let dir = TempDir()
        let r = try await run(["export", "Our Garden", dir.file("out.png")], home: dir.path)
        #expect(r.status != 0)
        #expect(r.stderr.contains("Our Garden"), "stderr: \(r.stderr)")
    }

    @Test func generateWritesADeterministicSketch() async throws {
        let dir = TempDir()
        let a = dir.file("a.xopp"), b = dir.file("b.xopp")
        for path in [a, b] {
            let r = try await Run.program(Run.toolsExecutable, ["generate", "--strokes", "40", "--points", "12", "--seed", "5", path],
                                          environment: ["XDG_DATA_HOME": dir.path, "HOME": dir.path])
            #expect(r.status == 0, "stderr: \(r.stderr)")
        }
        let docA = try SketchImport.read(a)
        #expect(docA.strokes.count == 40)
        #expect(docA.strokes.allSatisfy { $0.segments.count == 11 })
        #expect(try FileBytes.read(a) == FileBytes.read(b))
    }
}
