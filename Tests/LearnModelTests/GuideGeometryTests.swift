import Testing
@testable import LearnModel

@Suite struct GuideGeometryTests {
    @Test func noGuidesNoLines() {
        #expect(GuideGeometry.lines(for: .none, width: 1600, height: 1000).isEmpty)
    }

    @Test func squaredIsAFortyUnitGridInsideTheCanvas() {
        let lines = GuideGeometry.lines(for: .squared, width: 1600, height: 1000)
        let vertical = lines.filter { $0.from.x == $0.to.x }
        let horizontal = lines.filter { $0.from.y == $0.to.y }
        #expect(vertical.count == 39 && horizontal.count == 24)
        #expect(vertical.count + horizontal.count == lines.count)
        #expect(vertical.map(\.from.x) == (1...39).map { Double($0) * 40 })
        #expect(horizontal.map(\.from.y) == (1...24).map { Double($0) * 40 })
        #expect(vertical.allSatisfy { $0.from.y == 0 && $0.to.y == 1000 && $0.kind == .grid })
        #expect(horizontal.allSatisfy { $0.from.x == 0 && $0.to.x == 1600 && $0.kind == .grid })
    }

    @Test func linedHasRulesEveryFiftyUnitsBelowATopMarginAndAMarginLine() {
        let meta = SketchMeta(name: "x", guides: .lined)
        let lines = GuideGeometry.lines(for: meta)
        let rules = lines.filter { $0.kind == .rule }
        #expect(rules.map(\.from.y) == stride(from: 100.0, to: 1000, by: 50).map { $0 })
        #expect(rules.allSatisfy { $0.from.x == 0 && $0.to.x == 1600 && $0.from.y == $0.to.y })
        let margins = lines.filter { $0.kind == .margin }
        #expect(margins == [GuideLine(from: Point(120, 0), to: Point(120, 1000), kind: .margin)])
    }

    @Test func clippedToADamagedRect() {
        let rect = Rect(x: 100, y: 100, width: 50, height: 50)
        let lines = GuideGeometry.lines(for: .squared, width: 1600, height: 1000, in: rect)
        #expect(Set(lines.filter { $0.from.x == $0.to.x }.map(\.from.x)) == [120])
        #expect(Set(lines.filter { $0.from.y == $0.to.y }.map(\.from.y)) == [120])
    }

    @Test func degenerateCanvasGivesNoLines() {
        #expect(GuideGeometry.lines(for: .squared, width: 0, height: 1000).isEmpty)
        #expect(GuideGeometry.lines(for: .lined, width: .nan, height: 1000).isEmpty)
    }
}
