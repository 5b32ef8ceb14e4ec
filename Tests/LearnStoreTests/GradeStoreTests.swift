import Foundation
import Testing
import LearnModel
@testable import LearnStore

@Suite struct GradeStoreTests {
    @Test func everyGradeIsListedByItsIdAndAChangeOfMindReplacesIt() throws {
        let store = try LocalStore.inMemory()
        let sketch = UUID(), mia = UUID()
        let target = GradedWorkID(sketch)
        let teamID = GradeIdentity.team(.sketch, sketch)
        let miaID = GradeIdentity.pupil(.sketch, sketch, pupil: mia)
        try store.setGrade(id: teamID, GradeRecord(target: .sketch, targetId: target, grade: 2, comment: "", at: 1))
        try store.setGrade(id: miaID, GradeRecord(target: .sketch, targetId: target, pupilId: AccountID(mia),
                                                  pupilName: "Mia", grade: 3, comment: "a", at: 2))
        try store.setGrade(id: miaID, GradeRecord(target: .sketch, targetId: target, pupilId: AccountID(mia),
                                                  pupilName: "Mia", grade: 1, comment: "b", at: 3))
        let all = try store.allGrades()
        #expect(all.count == 2)
        #expect(all[miaID.storeKey]?.grade == 1 && all[miaID.storeKey]?.pupilName == "Mia")
        try store.setGrade(id: teamID, GradeRecord(target: .sketch, targetId: target, grade: nil, comment: "",
                                                   deleted: true, at: 4))
        #expect(Array(try store.allGrades().keys) == [miaID.storeKey])
    }

    /// Two laptops of one teacher: the grade kept is the latest edit,
    /// whatever order the edits reach a device in.
    @Test func theLatestEditOfAGradeWinsInWhateverOrderItArrives() throws {
        let sketch = UUID(), mia = UUID()
        let id = GradeIdentity.pupil(.sketch, sketch, pupil: mia)
        func edit(_ grade: Int, at: Int64) -> GradeRecord {
            GradeRecord(target: .sketch, targetId: GradedWorkID(sketch), pupilId: AccountID(mia),
                        pupilName: "Mia", grade: grade, comment: "", at: at)
        }
        func remote(_ record: GradeRecord, seq: Int64) throws -> RemoteChange {
            RemoteChange(seq: seq, opId: UUID(), entity: .grade, entityId: id.uuidString.lowercased(),
                         payload: try JSONEncoder().encode(record), createdAt: Date())
        }
        // The newer edit arrives first, the older one (made offline) later.
        let store = try LocalStore.inMemory()
        try store.applyRemote([try remote(edit(2, at: 2_000), seq: 1)], cursor: 1, for: "s")
        try store.applyRemote([try remote(edit(4, at: 1_000), seq: 2)], cursor: 2, for: "s")
        #expect(try store.allGrades()[id.storeKey]?.grade == 2)
        // In the other order, the same grade.
        let other = try LocalStore.inMemory()
        try other.applyRemote([try remote(edit(4, at: 1_000), seq: 1), try remote(edit(2, at: 2_000), seq: 2)],
                              cursor: 2, for: "s")
        #expect(try other.allGrades()[id.storeKey]?.grade == 2)
        // Edits of the same millisecond: every device keeps the same one.
        let tieA = try LocalStore.inMemory(), tieB = try LocalStore.inMemory()
        try tieA.applyRemote([try remote(edit(3, at: 5_000), seq: 1), try remote(edit(1, at: 5_000), seq: 2)], cursor: 2, for: "s")
        try tieB.applyRemote([try remote(edit(1, at: 5_000), seq: 1), try remote(edit(3, at: 5_000), seq: 2)], cursor: 2, for: "s")
        #expect(try tieA.allGrades()[id.storeKey] == tieB.allGrades()[id.storeKey])
        // A teacher who changes the grade on a laptop whose clock is behind
        // the edit they see still changes it: their edit comes after it.
        try store.setGrade(id: id, edit(5, at: 1_500))
        let kept = try #require(try store.allGrades()[id.storeKey])
        #expect(kept.grade == 5 && kept.at > 2_000)
        let pushed = try #require(try store.pendingOutbox().last)
        #expect(try JSONDecoder().decode(GradeRecord.self, from: pushed.payload) == kept)
    }
}
