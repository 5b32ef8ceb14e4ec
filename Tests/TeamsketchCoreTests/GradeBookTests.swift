import Foundation
import LearnModel
import LearnStore
import TeamsketchCore
import Testing

@Suite struct GradeBookTests {
    let now = Date(timeIntervalSince1970: 1_790_000_000)
    let mia = UUID()

    /// A store with one sketch Mia and Ole drew in, and a grade book over it
    /// that counts the sync rounds it asks for.
    func book() throws -> (GradeBook, SketchDocument, Tally) {
        let store = try LocalStore.inMemory()
        let doc = SketchDocument(meta: SketchMeta(name: "Haus"),
                                 ops: [strokeOp(1, author: "Mia"), strokeOp(2, author: "Ole"), strokeOp(3, author: "Mia")])
        try store.saveSketch(doc)
        let rounds = Tally()
        return (GradeBook.live(store) { rounds.add() }, doc, rounds)
    }

    var roster: GradedPupils { GradedPupils(roster: [.init(id: mia, name: "Mia", classID: "c", className: "2b")]) }

    @Test func aTeamGradeIsKeptThenSyncedAndATooLongCommentKeepsNothing() throws {
        let (book, doc, rounds) = try book()
        #expect(book.teamGrade(sketch: doc.meta.id) == nil)
        #expect(try book.saveTeamGrade(sketch: doc.meta.id, grade: 2, comment: "  Schön! \n", now: now) == .saved)
        #expect(book.teamGrade(sketch: doc.meta.id)?.grade == 2)
        #expect(book.teamGrade(sketch: doc.meta.id)?.comment == "Schön!", "the comment is kept trimmed")
        #expect(rounds.count == 1)
        let long = String(repeating: "x", count: GradeRecord.maxCommentCharacters + 1)
        #expect(try book.saveTeamGrade(sketch: doc.meta.id, grade: 1, comment: long, now: now)
                == .commentTooLong(max: GradeRecord.maxCommentCharacters))
        #expect(book.teamGrade(sketch: doc.meta.id)?.grade == 2, "the earlier grade stays")
        #expect(rounds.count == 1, "nothing kept, nothing to sync")
    }

    @Test func aPupilGradedByNameIsMovedToTheAccountOnceTheRosterKnowsThem() throws {
        let (book, doc, rounds) = try book()
        let sketch = doc.meta.id
        #expect(try book.savePupilGrade("Mia", sketch: sketch, grade: 3, comment: "", pupils: GradedPupils(), now: now)
                == .saved)
        #expect(book.pupilGrade("Mia", sketch: sketch, pupils: GradedPupils())?.grade == 3)
        #expect(book.pupilGrade("Mia", sketch: sketch, pupils: roster)?.grade == 3, "found by the name before the account")
        #expect(try book.savePupilGrade("Mia", sketch: sketch, grade: 1, comment: "Toll", pupils: roster,
                                        now: now.addingTimeInterval(60)) == .saved)
        let kept = try #require(book.pupilGrade("Mia", sketch: sketch, pupils: roster))
        #expect(kept.grade == 1 && kept.pupilId == AccountID(mia))
        let standing = try book.records(sketch).filter { $0.pupilId != nil && !$0.deleted }
        #expect(standing.map(\.pupilId) == [AccountID(mia)],
                "the grade under the name was taken back: one grade remains")
        #expect(book.pupilGrade("Ole", sketch: sketch, pupils: roster) == nil)
        #expect(rounds.count == 2)
        #expect(try book.savePupilGrade("Mia", sketch: sketch, grade: 2, comment: "", pupils: roster,
                                        now: now.addingTimeInterval(120)) == .saved)
        let latest = try #require(book.pupilGrade("Mia", sketch: sketch, pupils: roster))
        #expect(book.before(latest).map(\.grade) == [1], "what the grade was before")
    }

    @Test func aPupilsGameResultsAreGradedOnTheirOwnWork() throws {
        let (book, _, _) = try book()
        #expect(try book.savePupilGrade("Mia", sketch: nil, grade: 4, comment: "Weiter üben", pupils: roster, now: now)
                == .saved)
        #expect(book.pupilGrade("Mia", sketch: nil, pupils: roster)?.grade == 4)
        #expect(book.pupilGrade("Mia", sketch: nil, pupils: roster)?.targetId
                == GradedWorkID(GradeIdentity.wordPostResults(of: mia)))
    }

    @Test func withoutAStoreNothingIsSaidToBeSavedAndNoSyncIsAsked() {
        let rounds = Tally()
        var book = GradeBook.unavailable
        book.kept = { rounds.add() }
        #expect(throws: StoreUnavailable.self) {
            try book.saveTeamGrade(sketch: UUID(), grade: 1, comment: "", now: now)
        }
        #expect(throws: StoreUnavailable.self) {
            try book.savePupilGrade("Mia", sketch: UUID(), grade: 1, comment: "", pupils: GradedPupils(), now: now)
        }
        #expect(book.authors(of: [UUID()]).isEmpty)
        #expect(rounds.count == 0)
    }

    @Test func theGradesListAndTheSpreadsheetHoldTheTeamsAndEachPupilsGrade() throws {
        let (book, doc, _) = try book()
        let sketch = doc.meta.id
        _ = try book.saveTeamGrade(sketch: sketch, grade: 2, comment: "Team", now: now)
        _ = try book.savePupilGrade("Mia", sketch: sketch, grade: 1, comment: "Mia allein", pupils: roster, now: now)
        let list = try book.list(pupils: roster, authors: book.authors(of: [sketch]))
        #expect(Set(list.rows.map(\.kind)) == [.team, .pupil])
        #expect(list.rows.allSatisfy { $0.workName == "Haus" })
        #expect(book.authors(of: [sketch, UUID()]) == [sketch: ["Mia", "Ole"]],
                "an unreadable sketch is left out")

        let csv = book.sketchSheet([sketch, UUID()], pupils: roster, dialect: .english)
        let lines = csv.split(whereSeparator: \.isNewline).map(String.init)
        #expect(lines.first == GradeSheet.columns.joined(separator: ","))
        #expect(lines.count == 3, "a row per pupil who drew; the unreadable sketch is left out")
        let miaRow = try #require(lines.first { $0.contains(",Mia,") })
        #expect(miaRow.contains("Team") && miaRow.contains("Mia allein"))
        let oleRow = try #require(lines.first { $0.contains(",Ole,") })
        #expect(oleRow.contains("Team") && !oleRow.contains("Mia allein"))
    }
}
