import Foundation
import LearnModel
import TeamsketchTestSupport
import Testing
@testable import LearnRender

@Suite struct XoppFileTests {
    @Test func writtenFileIsGzippedXournalXML() throws {
        let dir = TempDir()
        let path = dir.file("sketch.xopp")
        try SketchExport.write(Fixture.sketch(), to: path)
        let bytes = try FileBytes.read(path)
        #expect(Gzip.isGzip(bytes))
        let xml = String(decoding: try Gzip.decompress(bytes), as: UTF8.self)
        #expect(xml.hasPrefix("<?xml"))
        #expect(xml.contains("<xournal"))
        #expect(xml.contains("<stroke tool=\"pen\" color=\"#e3201bff\""))
    }

    @Test func roundTripKeepsStrokesColoursAndWidths() throws {
        let dir = TempDir()
        let path = dir.file("round.xopp")
        let doc = Fixture.sketch(guides: .lined, name: "Round trip")
        try XoppFile.write(doc, to: path)
        let back = try XoppFile.read(path)
        #expect(back.meta.name == "Round trip")
        #expect(back.meta.guides == .lined)
        #expect((back.meta.width, back.meta.height) == (1600, 1000))
        try #require(back.strokes.count == doc.strokes.count)
        for (a, b) in zip(doc.strokes, back.strokes) {
            #expect(a.width == b.width)
            #expect(abs(a.color.r - b.color.r) < 0.5 / 255 && abs(a.color.g - b.color.g) < 0.5 / 255
                    && abs(a.color.b - b.color.b) < 0.5 / 255)
            #expect(a.isDot == b.isDot)
            #expect(a.start.distance(to: b.start) < 1e-6)
            let endA = a.segments.last?.end ?? a.start, endB = b.segments.last?.end ?? b.start
            #expect(endA.distance(to: endB) < 1e-6)
        }
    }

    @Test func generatedSketchRoundTripsPointForPoint() throws {
        let doc = SketchGenerator(seed: 3).document(strokes: 50, pointsPerStroke: 30, shape: .polyline)
        let back = try XoppFile.decode(XoppFile.data(doc), path: "gen.xopp")
        #expect(back.strokes.count == 50)
        for (a, b) in zip(doc.strokes, back.strokes) {
            #expect(b.segments.count == a.segments.count)
            // .xopp keeps coordinates to a hundredth of a unit.
            #expect(zip(a.segments, b.segments).allSatisfy { $0.end.distance(to: $1.end) < 0.01 })
        }
    }

    @Test func plainUncompressedXMLImportsToo() throws {
        let dir = TempDir()
        let path = dir.file("plain.xopp")
        try FileBytes.write(XoppFormat.export(Fixture.sketch()), to: path)
        #expect(try XoppFile.read(path).strokes.count == 3)
    }

    @Test func fileWithoutKnownExtensionIsRecognisedByContent() throws {
        let dir = TempDir()
        let xopp = dir.file("drawing.bak"), ours = dir.file("drawing.json")
        try FileBytes.write(XoppFile.data(Fixture.sketch()), to: xopp)
        try FileBytes.write(TeamsketchFile.data(Fixture.sketch()), to: ours)
        #expect(try SketchImport.read(xopp).strokes.count == 3)
        #expect(try SketchImport.read(ours).strokes.count == 3)
    }

    @Test func foreignFilesAreRefusedClearly() throws {
        let dir = TempDir()
        let text = dir.file("notes.xopp")
        try FileBytes.write(Array("hello, this is not a sketch".utf8), to: text)
        #expect(throws: SketchIOError.notASketch(
            path: text, reason: "a .xopp file is gzip-compressed, a zip archive or plain XML, and this is none of them")) {
            try XoppFile.read(text)
        }
        let html = dir.file("page.xopp")
        try FileBytes.write(Gzip.compress(Array("<html><body/></html>".utf8)), to: html)
        #expect(throws: SketchIOError.notASketch(path: html, reason: "it is not a Xournal++ document")) {
            try XoppFile.read(html)
        }
        let empty = dir.file("empty.xopp")
        try FileBytes.write([], to: empty)
        #expect(throws: SketchIOError.notASketch(path: empty, reason: "the file is empty")) {
            try XoppFile.read(empty)
        }
        let cut = dir.file("cut.xopp")
        let whole = try XoppFile.data(Fixture.sketch())
        try FileBytes.write(Array(whole.prefix(whole.count - 12)), to: cut)
        #expect(throws: SketchIOError.self) { try XoppFile.read(cut) }
    }

    @Test func missingFileAndPicturesAreNotSketches() {
        #expect(throws: SketchIOError.unreadable(path: "/no/such/file.xopp", reason: "no such file or directory")) {
            try SketchImport.read("/no/such/file.xopp")
        }
        #expect(throws: SketchIOError.notASketch(
            path: "/tmp/some.png",
            reason: "a .png file holds a picture, not strokes; open a .xopp or .teamsketch file")) {
            try SketchImport.read("/tmp/some.png")
        }
    }
}
