import Foundation
import Testing
import LearnModel
@testable import LearnStore
import TeamsketchCore

@Suite struct GradedPupilsTests {
    let twoB: SchoolClassID = "c1", threeA: SchoolClassID = "c2"
    let miaAccount = UUID(), benAccount = UUID(), mia3a = UUID()

    @Test func aPupilOfTheTeachersClassesIsTheirAccountOtherwiseTheirName() {
        let pupils = GradedPupils(roster: [.init(id: miaAccount, name: "Mia", classID: twoB, className: "2b"),
                                           .init(id: benAccount, name: "Ben", classID: twoB, className: "2b")])
        #expect(pupils.id(for: " mia") == miaAccount)
        #expect(pupils.id(for: "Ole") == GradeIdentity.namedPupil("Ole"))
        #expect(GradedPupils().id(for: "Mia") == GradeIdentity.namedPupil("Mia"))
    }

    @Test func twoPupilsOfTheSameNameAreNotGuessed() {
        let pupils = GradedPupils(roster: [.init(id: miaAccount, name: "Mia", classID: twoB, className: "2b"),
                                           .init(id: mia3a, name: "Mia", classID: threeA, className: "3a")])
        #expect(pupils.account(named: "Mia") == nil)
        #expect(pupils.id(for: "Mia") == GradeIdentity.namedPupil("Mia"))
        #expect(pupils.classIDs(id: nil, name: "Mia") == [twoB, threeA])
        #expect(pupils.classIDs(id: AccountID(mia3a), name: "Mia") == [threeA])
    }

    @Test func aGradeGivenUnderTheNameIsFoundOnceTheAccountIsKnown() {
        let target = GradedWorkID(UUID())
        let byName = GradeRecord(target: .sketch, targetId: target, pupilId: AccountID(GradeIdentity.namedPupil("Mia")),
                                 pupilName: "Mia", grade: 3, comment: "", at: 1)
        let team = GradeRecord(target: .sketch, targetId: target, grade: 1, comment: "", at: 2)
        let pupils = GradedPupils(roster: [.init(id: miaAccount, name: "Mia", classID: twoB, className: "2b")])
        #expect(pupils.grade(for: "Mia", among: [byName, team])?.grade == 3)
        let byAccount = GradeRecord(target: .sketch, targetId: target, pupilId: AccountID(miaAccount),
                                    pupilName: "Mia", grade: 2, comment: "", at: 0)
        // The account's own grade wins over one under the name.
        #expect(pupils.grade(for: "Mia", among: [byName, byAccount, team])?.grade == 2)
        #expect(pupils.grade(for: "Ben", among: [byName, team]) == nil)
    }
}

@Suite struct GradeListTests {
    let day = Date(timeIntervalSince1970: 1_790_000_000)
    let mia = UUID(), ben = UUID()
    let haus = UUID(), baum = UUID()

    func list(_ records: [String: GradeRecord], roster: Bool = true) -> GradeList {
        let pupils = GradedPupils(roster: roster ? [.init(id: mia, name: "Mia", classID: "2b", className: "2b"),
                                                    .init(id: ben, name: "Ben", classID: "3a", className: "3a")] : [])
        let games = GradeIdentity.wordPostResults(of: ben)
        return GradeList(records: records,
                         sketches: [haus: .init(name: "Haus", date: day, authors: ["Mia", "Ben"]),
                                    baum: .init(name: "Baum", date: day + 3600, authors: ["Mia"])],
                         lastPlayed: [games: day + 7200], pupils: pupils)
    }

    func records() -> [String: GradeRecord] {
        let h = GradedWorkID(haus), b = GradedWorkID(baum)
        let games = GradedWorkID(GradeIdentity.wordPostResults(of: ben))
        return [
            "t-haus": GradeRecord(target: .sketch, targetId: h, grade: 2, comment: "Team", at: 10),
            "p-haus-mia": GradeRecord(target: .sketch, targetId: h, pupilId: AccountID(mia), pupilName: "Mia",
                                      grade: 1, comment: "Mia", at: 11),
            "p-haus-ben": GradeRecord(target: .sketch, targetId: h, pupilId: AccountID(ben), pupilName: "Ben",
                                      grade: 3, comment: "Ben", at: 12),
            "p-baum-mia": GradeRecord(target: .sketch, targetId: b, pupilId: AccountID(mia), pupilName: "Mia",
                                      grade: 2, comment: "", at: 13),
            "g-ben": GradeRecord(target: .wordPostGame, targetId: games, pupilId: AccountID(ben),
                                 pupilName: "Ben", grade: 4, comment: "Üben", at: 14),
            "gone": GradeRecord(target: .sketch, targetId: h, grade: 5, comment: "", deleted: true, at: 15),
            "elsewhere": GradeRecord(target: .sketch, targetId: GradedWorkID(UUID()), grade: 1, comment: "",
                                     at: 1_790_010_000_000),
        ]
    }

    @Test func newestWorkFirstTheTeamBeforeItsPupils() {
        let rows = list(records()).rows
        #expect(rows.map(\.id) == ["elsewhere", "g-ben", "p-baum-mia", "t-haus", "p-haus-ben", "p-haus-mia"])
        #expect(rows.map(\.kind) == [.team, .game, .pupil, .team, .pupil, .pupil])
        // A sketch graded on another device and not here: no name, nothing to open.
        #expect(rows[0].workName == nil && rows[0].sketchID == nil)
        #expect(rows[1].workName == "Buchstaben Post" && rows[1].workDate == day + 7200 && rows[1].sketchID == nil)
        #expect(rows[3].sketchID == haus && rows[3].pupil.isEmpty && rows[3].pupils == ["Mia", "Ben"])
    }

    @Test func aPupilSeesTheirTeamsGradesTheirOwnAndTheirGames() {
        let all = list(records())
        #expect(all.filtered(.init(pupil: "ben")).map(\.id) == ["g-ben", "t-haus", "p-haus-ben"])
        #expect(all.filtered(.init(pupil: "Mia")).map(\.id) == ["p-baum-mia", "t-haus", "p-haus-mia"])
        #expect(all.pupilNames == ["Ben", "Mia"])
    }

    @Test func aClassSeesTheGradesOfItsPupils() {
        let all = list(records())
        #expect(all.filtered(.init(classID: "3a")).map(\.id) == ["g-ben", "t-haus", "p-haus-ben"])
        #expect(all.filtered(.init(classID: "2b")).map(\.id) == ["p-baum-mia", "t-haus", "p-haus-mia"])
        #expect(all.filtered(.init(pupil: "Mia", classID: "3a")).map(\.id) == ["t-haus"])
        // Without a roster no class is known, so a class filter finds nothing.
        #expect(list(records(), roster: false).filtered(.init(classID: "2b")).isEmpty)
    }

    @Test func aGameGradeWithoutAPupilIsNotListed() {
        let stray = GradeRecord(target: .wordPostGame, targetId: GradedWorkID(UUID()), grade: 1, comment: "", at: 1)
        #expect(list(["x": stray]).rows.isEmpty)
    }
}

@Suite struct GameStatsSheetTests {
    func round(_ name: String, _ word: String, finished: Bool, ms: Int64, sent: Int, received: Int, wrong: Int,
               at: Double) -> WordPostRoundStat {
        WordPostRoundStat(id: UUID(), gameID: UUID(), round: 1, playerName: name, word: word, finished: finished,
                          milliseconds: ms, lettersSent: sent, lettersReceived: received, wrongPlacements: wrong,
                          playedAt: Date(timeIntervalSince1970: at))
    }

    @Test func onePupilPerRowWithTheirNumbersAndGrade() {
        let mia = WordPostPlayerRecord(playerName: "Mia", rounds: [
            round("Mia", "HUND", finished: true, ms: 20_000, sent: 2, received: 1, wrong: 1, at: 1_790_000_000),
            round("Mia", "KATZE", finished: true, ms: 31_000, sent: 3, received: 2, wrong: 0, at: 1_790_000_100),
            round("Mia", "MAUS", finished: false, ms: 60_000, sent: 1, received: 0, wrong: 2, at: 1_790_000_200),
        ])
        let evil = WordPostPlayerRecord(playerName: "=cmd|' /C calc'!A0", rounds: [
            round("x", "OHR", finished: false, ms: 5_000, sent: 0, received: 0, wrong: 0, at: 1_790_000_000),
        ])
        var sheet = GameStatsSheet()
        sheet.add(mia, grade: GradeRecord(target: .wordPostGame, targetId: GradedWorkID(UUID()), pupilId: AccountID(UUID()),
                                          grade: 2, comment: "Schnell, \"sicher\"", at: 1))
        sheet.add(evil, grade: GradeRecord(target: .wordPostGame, targetId: GradedWorkID(UUID()), pupilId: AccountID(UUID()),
                                           grade: 1, comment: "+weg", deleted: true, at: 1))
        let lines = sheet.csv().components(separatedBy: "\r\n")
        #expect(lines.count == 4 && lines[3].isEmpty)
        #expect(lines[0] == GameStatsSheet.header)
        let last = SpreadsheetText.minute(Date(timeIntervalSince1970: 1_790_000_200))
        #expect(lines[1] == "Mia,2,3,25.5,6,3,3,\(last),2,\"Schnell, \"\"sicher\"\"\"")
        // A name a spreadsheet would run is defused; a taken-back grade is gone.
        #expect(lines[2].hasPrefix("'=cmd|' /C calc'!A0,0,1,,0,0,0,"))
        #expect(lines[2].hasSuffix(",,"))
    }
}

@Suite struct PupilGradeChangeTests {
    let mia = UUID()

    @Test func aGradeGoesUnderThePupilAndAnEarlierOneUnderTheNameIsTakenBack() throws {
        let sketch = UUID()
        let pupils = GradedPupils(roster: [.init(id: mia, name: "Mia", classID: "c", className: "2b")])
        let named = GradeIdentity.namedPupil("Mia")
        let earlier = GradeRecord(target: .sketch, targetId: GradedWorkID(sketch),
                                  pupilId: AccountID(named), pupilName: "Mia", grade: 3, comment: "x", at: 1)
        let changes = pupils.changes(sketch: sketch, name: "Mia", grade: 2, comment: " Gut ", previous: earlier, at: 5)
        #expect(changes.count == 2)
        #expect(changes[0].id == GradeIdentity.pupil(.sketch, sketch, pupil: mia))
        #expect(changes[0].record.pupilId == AccountID(mia) && changes[0].record.comment == "Gut")
        #expect(changes[0].record.grade == 2 && !changes[0].record.deleted && changes[0].record.problem == nil)
        #expect(changes[1].id == GradeIdentity.pupil(.sketch, sketch, pupil: named))
        #expect(changes[1].record.deleted && changes[1].record.grade == nil && changes[1].record.at == 5)
        // The same pupil again: one record, replacing itself.
        #expect(pupils.changes(sketch: sketch, name: "Mia", grade: 1, comment: "", previous: changes[0].record, at: 6).count == 1)
    }

    @Test func gameResultsAreGradedOnThePupilsResultsAndNothingLeftIsATakeBack() {
        let pupils = GradedPupils()
        let changes = pupils.changes(sketch: nil, name: "Ole", grade: nil, comment: "  ", previous: nil, at: 1)
        let ole = GradeIdentity.namedPupil("Ole")
        #expect(changes.count == 1)
        #expect(changes[0].record.target == .wordPostGame)
        #expect(changes[0].record.targetId == GradedWorkID(GradeIdentity.wordPostResults(of: ole)))
        #expect(changes[0].id == GradeIdentity.pupil(.wordPostGame, GradeIdentity.wordPostResults(of: ole), pupil: ole))
        #expect(changes[0].record.deleted)
        #expect(pupils.gameTargets(for: "Ole") == [GradeIdentity.wordPostResults(of: ole)])
        let known = GradedPupils(roster: [.init(id: mia, name: "Mia", classID: "c", className: "2b")])
        #expect(known.gameTargets(for: "mia") == [GradeIdentity.wordPostResults(of: mia),
                                                  GradeIdentity.wordPostResults(of: GradeIdentity.namedPupil("Mia"))])
    }
}
