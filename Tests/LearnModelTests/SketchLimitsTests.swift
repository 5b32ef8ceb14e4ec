import Foundation
import Testing
@testable import LearnModel
import TeamsketchTestSupport

/// Files from USB sticks and e-mail are hostile: values that would trap a
/// later conversion (thumbnail size, time limit, export) are refused on the
/// way in, with a message naming the value.
@Suite struct SketchLimitsTests {
    private func document(createdAt: Date = sketchDate(0), width: Double = 1600, height: Double = 1000,
                          point: Point = Point(10, 10), penWidth: Double = 4) -> SketchDocument {
        let stroke = Stroke(author: "Anna", color: PenColor.red.rgba, width: penWidth, start: Point(1, 1),
                            segments: [.line(from: Point(1, 1), to: point)],
                            startedAt: sketchDate(1), endedAt: sketchDate(2))
        let meta = SketchMeta(name: "Zoo", width: width, height: height, createdAt: createdAt)
        return SketchDocument(meta: meta, ops: [.addStroke(stroke)])
    }

    private func decodeError(_ doc: SketchDocument) throws -> SketchLimitError? {
        let data = try SketchFileFormat.encode(doc)
        do {
            _ = try SketchFileFormat.decode(data)
            return nil
        } catch {
            guard case .outOfLimits(let why) = error else {
                Issue.record("expected outOfLimits, got \(error)")
                return nil
            }
            #expect(error.errorDescription?.isEmpty == false)
            return why
        }
    }

    @Test func aTeamsketchFileFromTheFarFutureIsRefused() throws {
        let why = try decodeError(document(createdAt: Date(timeIntervalSince1970: 1e19)))
        #expect(why == .date(secondsSince1970: 1e19))
        #expect(why?.errorDescription?.contains("1e+19") == true)
    }

    @Test func aHugeCanvasIsRefused() throws {
        #expect(try decodeError(document(width: 1e19)) == .canvasSize(width: 1e19, height: 1000))
        #expect(try decodeError(document(height: 1e8)) == .canvasSize(width: 1600, height: 1e8))
    }

    @Test func farAwayPointsAndImpossibleWidthsAreRefused() throws {
        #expect(try decodeError(document(point: Point(1e19, 5))) == .coordinate(stroke: 0, value: 1e19))
        #expect(try decodeError(document(point: Point(5, -1e19))) == .coordinate(stroke: 0, value: -1e19))
        #expect(try decodeError(document(penWidth: 1e12)) == .penWidth(stroke: 0, value: 1e12))
    }

    @Test func ordinarySketchesPass() throws {
        let doc = document()
        try SketchValidation.check(doc)
        #expect(try SketchFileFormat.decode(SketchFileFormat.encode(doc)).ops.count == 1)
        let big = SketchGenerator(seed: 3).document(strokes: 500, pointsPerStroke: 60)
        try SketchValidation.check(big)
    }

    @Test func notANumberFailsEveryCheck() {
        #expect(throws: SketchLimitError.self) { try SketchValidation.check(self.document(width: .nan)) }
        #expect(throws: SketchLimitError.self) { try SketchValidation.check(self.document(point: Point(.nan, 0))) }
        #expect(throws: SketchLimitError.self) { try SketchValidation.check(self.document(penWidth: .infinity)) }
        // Not through #expect: describing a NaN Date traps inside Foundation,
        // which is also why the error carries seconds rather than a Date.
        do {
            try SketchValidation.check(document(createdAt: Date(timeIntervalSince1970: .nan)))
            Issue.record("a NaN date passed")
        } catch {
            guard case .date(let t) = error else { Issue.record("wrong error"); return }
            #expect(t.isNaN)
            #expect(String(describing: error).contains("nan"))
        }
    }

    @Test func tooManyOpsAreRefusedBeforeLookingAtEachOne() {
        let op = SketchOp.clear(by: "a", at: sketchDate(0))
        let ops = [SketchOp](repeating: op, count: SketchLimits.maxOps + 1)
        #expect(throws: SketchLimitError.tooManyOps(SketchLimits.maxOps + 1)) { try SketchValidation.check(ops: ops) }
    }

    // MARK: .xopp

    private func xopp(page: String = #"width="612" height="792""#, points: String = "1 2 3 4") -> [UInt8] {
        Array(("<?xml version=\"1.0\"?>\n<xournal creator=\"x\">\n<page \(page)>\n<layer>\n"
            + "<stroke tool=\"pen\" color=\"#ff0000ff\" width=\"2\">\(points)</stroke>\n"
            + "</layer>\n</page>\n</xournal>\n").utf8)
    }

    @Test func anXoppPageOfHeightHundredMillionIsRefused() {
        do {
            _ = try XoppFormat.parse(xopp(page: #"width="612" height="1e8""#))
            Issue.record("imported a page of height 1e8")
        } catch {
            #expect(error == .outOfLimits(.canvasSize(width: 612, height: 1e8)))
            #expect(error.errorDescription?.contains("100000000") == true)
        }
    }

    @Test func anXoppPointNearTenToTheNineteenIsRefused() {
        do {
            _ = try XoppFormat.parse(xopp(points: "1 2 1e19 4"))
            Issue.record("imported a point at 1e19")
        } catch {
            #expect(error == .outOfLimits(.coordinate(stroke: 0, value: 1e19)))
        }
    }

    @Test func exportingFarAwayInkDoesNotTrap() {
        // A document built in memory (not from a file) may still hold such a
        // value; writing it must not trap on an integer conversion.
        let xml = String(decoding: XoppFormat.export(document(point: Point(1e19, -1e19))), as: UTF8.self)
        #expect(xml.contains("<stroke"))
    }
}
