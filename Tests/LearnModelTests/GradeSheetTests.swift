import Foundation
import Testing
@testable import LearnModel

@Suite struct GradeSheetTests {
    let t0 = Date(timeIntervalSince1970: 1_750_000_000)

    func line(_ author: String, from x: Double, length: Double, at t: Double) -> Stroke {
        Stroke(author: author, color: PenColor.red.rgba, width: 4, start: Point(x, 10),
               segments: [.line(from: Point(x, 10), to: Point(x + length, 10))],
               startedAt: t0.addingTimeInterval(t), endedAt: t0.addingTimeInterval(t + 30))
    }

    @Test func onePupilPerRowWithTheTeamsGradeAndTheirShare() {
        let doc = SketchDocument(meta: SketchMeta(name: "Haus", createdAt: t0),
                                 ops: [.addStroke(line("Mia", from: 0, length: 300, at: 0)),
                                       .addStroke(line("Ole", from: 0, length: 100, at: 40))])
        var sheet = GradeSheet()
        sheet.add(doc, grade: GradeRecord(target: .sketch, targetId: GradedWorkID(doc.meta.id), grade: 2,
                                          comment: "Schön, \"gut\" gemacht", at: 1))
        #expect(sheet.rows.map(\.pupil) == ["Mia", "Ole"])
        #expect(sheet.rows.map(\.inkPercent) == [75, 25])
        #expect(sheet.rows.map(\.activeMinutes) == [0.5, 0.5])
        let lines = sheet.csv().components(separatedBy: "\r\n")
        #expect(lines[0] == GradeSheet.header)
        #expect(lines[1].hasPrefix("Haus,"))
        #expect(lines[1].hasSuffix(",Mia,1,75,0.5,0,2,\"Schön, \"\"gut\"\" gemacht\",,"))
    }

    @Test func eachPupilsOwnGradeStandsBesideTheTeams() {
        let doc = SketchDocument(meta: SketchMeta(name: "Haus", createdAt: t0),
                                 ops: [.addStroke(line("Mia", from: 0, length: 300, at: 0)),
                                       .addStroke(line("Ole", from: 0, length: 100, at: 40))])
        let target = GradedWorkID(doc.meta.id)
        let mias = GradeRecord(target: .sketch, targetId: target, pupilId: AccountID(UUID()), pupilName: "Mia",
                               grade: 1, comment: "=Toll", at: 2)
        let oles = GradeRecord(target: .sketch, targetId: target, pupilId: AccountID(UUID()), pupilName: "Ole",
                               grade: 4, comment: "zurück", deleted: true, at: 3)
        var sheet = GradeSheet()
        sheet.add(doc, grade: nil, pupilGrades: ["Mia": mias, "Ole": oles])
        #expect(sheet.rows.map(\.pupilGrade) == [1, nil])
        let lines = sheet.csv().components(separatedBy: "\r\n")
        #expect(lines[0].hasSuffix(",team_grade,team_comment,pupil_grade,pupil_comment"))
        #expect(lines[1].hasSuffix(",Mia,1,75,0.5,0,,,1,'=Toll"))
        #expect(lines[2].hasSuffix(",Ole,1,25,0.5,0,,,,"))
    }

    @Test func cellsASpreadsheetWouldRunAreDefused() {
        #expect(SpreadsheetText.cell("=HYPERLINK(\"x\")") == "\"'=HYPERLINK(\"\"x\"\")\"")
        #expect(SpreadsheetText.cell("+1") == "'+1")
        #expect(SpreadsheetText.cell("-2") == "'-2")
        #expect(SpreadsheetText.cell("@a") == "'@a")
        #expect(SpreadsheetText.cell("Mia") == "Mia")
        #expect(SpreadsheetDialect.german.text("=1;2") == "\"'=1;2\"")
    }

    @Test func anUngradedOrEmptySketchStillHasItsRow() {
        var sheet = GradeSheet()
        sheet.add(SketchDocument(meta: SketchMeta(name: "Leer")), grade: nil)
        let deleted = GradeRecord(target: .sketch, targetId: GradedWorkID(UUID()), grade: 1, comment: "x",
                                  deleted: true, at: 1)
        sheet.add(SketchDocument(meta: SketchMeta(name: "Zurück")), grade: deleted)
        #expect(sheet.rows.count == 2)
        #expect(sheet.rows.allSatisfy { $0.grade == nil && $0.comment.isEmpty && $0.pupil.isEmpty })
    }

    @Test func aTeamGradeKeepsOneIdPerWork() {
        let sketch = UUID()
        #expect(GradeIdentity.team(.sketch, sketch) == GradeIdentity.team(.sketch, sketch))
        #expect(GradeIdentity.team(.sketch, sketch) != GradeIdentity.team(.wordPostGame, sketch))
        #expect(GradeIdentity.team(.sketch, sketch) != GradeIdentity.team(.sketch, UUID()))
    }
}
