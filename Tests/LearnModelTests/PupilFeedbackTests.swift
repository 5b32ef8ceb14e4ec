import Foundation
import LearnModel
import Testing

@Suite struct PupilFeedbackTests {
    let sketch = "8d3c1f3e-1111-4e7a-9d1b-0a4b5c6d7e8f"
    let mia = "6a1d9b2e-2222-4c3d-8e4f-5a6b7c8d9e0f"
    let ben = "7b2e0c3f-3333-4d4e-9f5a-6b7c8d9e0f1a"

    func grade(_ pupil: String?, _ grade: Int?, _ comment: String, at: Int64, deleted: Bool = false) -> GradeRecord {
        GradeRecord(target: .sketch, targetId: GradedWorkID(sketch), pupilId: pupil.map { AccountID($0) }, grade: grade, comment: comment,
                    deleted: deleted, at: at)
    }

    @Test func aPupilSeesTheirOwnGradeBeforeTheTeamsAndNeverAClassmates() {
        let grades = [grade(nil, 3, "Schönes Team!", at: 1), grade(ben, 1, "Toll, Ben!", at: 5),
                      grade(mia, 2, "Gut gemacht, Mia.", at: 2)]
        let mias = PupilFeedback.shown(to: .init(accountID: AccountID(mia.uppercased()), name: "Mia"), from: grades)
        #expect(mias == PupilFeedback(grade: 2, comment: "Gut gemacht, Mia.", forTeam: false))
        #expect(mias?.stars == 4)
        // Lena, of the team too, has no grade of her own: the team's.
        let lenas = PupilFeedback.shown(to: .init(accountID: "9c3f1d4a-4444-4e5f-8a6b-7c8d9e0f1a2b", name: "Lena"),
                                        from: grades)
        #expect(lenas == PupilFeedback(grade: 3, comment: "Schönes Team!", forTeam: true))
        // Only classmates' grades: nothing for Mia to see.
        #expect(PupilFeedback.shown(to: .init(accountID: AccountID(mia), name: "Mia"), from: [grades[1]]) == nil)
    }

    @Test func theNewestEditCountsAndATakenBackGradeIsNone() {
        let grades = [grade(mia, 4, "Hm.", at: 1), grade(mia, 2, "Viel besser!", at: 3)]
        let viewer = PupilFeedback.Viewer(accountID: AccountID(mia), name: "Mia")
        #expect(PupilFeedback.shown(to: viewer, from: grades)?.grade == 2)
        #expect(PupilFeedback.shown(to: viewer, from: [grade(mia, 2, "x", at: 1, deleted: true)]) == nil)
        // A comment without a grade is still something to show.
        #expect(PupilFeedback.shown(to: viewer, from: [grade(mia, nil, "Erzähl mir davon!", at: 1)])?.stars == nil)
        #expect(PupilFeedback.shown(to: viewer, from: [grade(mia, nil, "", at: 1)]) == nil)
    }

    @Test func aGradeGivenByNameReachesThePupilOfThatName() {
        let byName = GradeIdentity.namedPupil("Mia").uuidString.lowercased()
        let grades = [grade(byName, 1, "Super!", at: 1)]
        #expect(PupilFeedback.shown(to: .init(accountID: nil, name: " mia "), from: grades)?.grade == 1)
        #expect(PupilFeedback.shown(to: .init(accountID: AccountID(ben), name: "Ben"), from: grades) == nil)
    }
}
