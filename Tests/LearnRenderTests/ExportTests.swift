import Foundation
import LearnModel
import TeamsketchTestSupport
import Testing
#if canImport(FoundationXML)
import FoundationXML
#endif
@testable import LearnRender

@Suite struct ExportTests {
    @Test func pngHasTheRequestedSizeAndTheStrokesColours() throws {
        let dir = TempDir()
        let path = dir.file("sketch.png")
        try SketchExport.write(Fixture.sketch(), to: path)
        let bytes = try FileBytes.read(path)
        #expect(bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
        let image = try CairoImage(png: bytes)
        #expect((image.width, image.height) == (1600, 1000))
        let onRed = image.pixel(x: 600, y: 300)
        #expect((onRed.r, onRed.g, onRed.b, onRed.a) == (0xE3, 0x20, 0x1B, 255))
        let onDot = image.pixel(x: 1400, y: 800)
        #expect((onDot.r, onDot.g, onDot.b) == (0x1E, 0x7B, 0x34))
        let empty = image.pixel(x: 1200, y: 150)
        #expect((empty.r, empty.g, empty.b, empty.a) == (255, 255, 255, 255))
    }

    @Test func pngWidthScalesTheWholeCanvasKeepingTheAspect() throws {
        let bytes = try SketchExport.pngData(Fixture.sketch(), width: 400)
        let image = try CairoImage(png: bytes)
        #expect((image.width, image.height) == (400, 250))
        let onRed = image.pixel(x: 150, y: 75)  // (600, 300) on the canvas
        #expect((onRed.r, onRed.g, onRed.b) == (0xE3, 0x20, 0x1B))
        let empty = image.pixel(x: 300, y: 37)
        #expect((empty.r, empty.g, empty.b) == (255, 255, 255))
    }

    @Test func pngWidthOutOfRangeIsATypedError() {
        #expect(throws: SketchIOError.invalidWidth(0)) { try SketchExport.pngData(Fixture.sketch(), width: 0) }
        #expect(throws: SketchIOError.invalidWidth(100_000)) {
            try SketchExport.pngData(Fixture.sketch(), width: 100_000)
        }
    }

    @Test func pdfIsAOnePageDocumentSizedToTheCanvas() throws {
        let dir = TempDir()
        let path = dir.file("sketch.pdf")
        try SketchExport.write(Fixture.sketch(name: "Unser Bild"), to: path)
        let bytes = try FileBytes.read(path)
        #expect(bytes.hasPrefix("%PDF-"))
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.contains("/MediaBox [ 0 0 1600 1000 ]"))
        #expect(text.contains("/Count 1"))
        #expect(text.hasSuffix("%%EOF\n"))
        #expect(bytes.count > 1000)
    }

    @Test func svgParsesAndHoldsPathsInPoints() throws {
        let bytes = try SketchExport.svgData(Fixture.sketch(guides: .lined))
        let collector = SVGElements()
        let parser = XMLParser(data: Data(bytes))
        parser.delegate = collector
        #expect(parser.parse(), "SVG must be well-formed XML: \(String(describing: parser.parserError))")
        #expect(collector.root?.name == "svg")
        #expect(collector.root?.attributes["width"] == "1600pt")
        #expect(collector.root?.attributes["height"] == "1000pt")
        #expect(collector.names.filter { $0 == "path" }.count >= 3)
        // The red ink is there as a stroke colour.
        #expect(String(decoding: bytes, as: UTF8.self).contains("rgb(89.019608%,12.54902%,10.588235%)"))
    }

    @Test func unknownExtensionIsRefusedWithTheAllowedOnes() {
        let dir = TempDir()
        let path = dir.file("sketch.jpg")
        #expect(throws: SketchIOError.unknownExtension(path: path, allowed: ["png", "pdf", "svg", "xopp", "teamsketch"])) {
            try SketchExport.write(Fixture.sketch(), to: path)
        }
        #expect(!FileBytes.exists(path))
        let message = SketchIOError.unknownExtension(path: "a.jpg", allowed: SketchFileKind.exportable).description
        #expect(message == "Unknown file type for a.jpg: use one of .png, .pdf, .svg, .xopp, .teamsketch.")
    }

    @Test func writingIntoAMissingFolderSaysWhy() {
        let path = "/nonexistent-folder-\(UUID().uuidString)/a.png"
        #expect(throws: SketchIOError.unwritable(path: path, reason: "no such file or directory")) {
            try SketchExport.write(Fixture.sketch(), to: path)
        }
    }

    @Test func teamsketchFileRoundTripsTheWholeOpLog() throws {
        let dir = TempDir()
        var doc = Fixture.sketch(guides: .squared)
        let erased = doc.strokes[1].id
        doc.apply(.eraseStroke(id: erased, by: "Dora", at: Fixture.date.addingTimeInterval(5)))
        let path = dir.file("mine.teamsketch")
        try SketchExport.write(doc, to: path)
        let back = try SketchImport.read(path)
        #expect(back == doc)
        #expect(back.ops.count == 4)
    }

    @Test func extensionsAreRecognisedCaseInsensitively() {
        #expect(SketchFileKind(path: "/a/b/Bild.PNG") == .png)
        #expect(SketchFileKind(path: "x.teamsketch") == .teamsketch)
        #expect(SketchFileKind(path: "dir.xopp/noext") == nil)
        #expect(SketchFileKind(path: ".png") == nil)
        #expect(SketchFileKind(path: "a.jpeg") == nil)
    }
}

/// Records the element names of an XML document and its root.
private final class SVGElements: NSObject, XMLParserDelegate {
    var names: [String] = []
    var root: (name: String, attributes: [String: String])?

    func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]) {
        if root == nil { root = (elementName, attributeDict) }
        names.append(elementName)
    }
}
