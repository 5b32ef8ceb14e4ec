import Foundation
import Testing
import LearnModel
@testable import LearnStore

@Suite struct GradeStoreTests {
    @Test func everyGradeIsListedByItsIdAndAChangeOfMindReplacesIt() throws {
        let store = try LocalStore.inMemory()
        let sketch = UUID(), mia = UUID()
        let target = sketch.uuidString.lowercased()
        let teamID = GradeIdentity.team(.sketch, sketch)
        let miaID = GradeIdentity.pupil(.sketch, sketch, pupil: mia)
        try store.setGrade(id: teamID, GradeRecord(target: .sketch, targetId: target, grade: 2, comment: "", at: 1))
        try store.setGrade(id: miaID, GradeRecord(target: .sketch, targetId: target, pupilId: mia.uuidString.lowercased(),
                                                  pupilName: "Mia", grade: 3, comment: "a", at: 2))
        try store.setGrade(id: miaID, GradeRecord(target: .sketch, targetId: target, pupilId: mia.uuidString.lowercased(),
                                                  pupilName: "Mia", grade: 1, comment: "b", at: 3))
        let all = try store.allGrades()
        #expect(all.count == 2)
        #expect(all[miaID.storeKey]?.grade == 1 && all[miaID.storeKey]?.pupilName == "Mia")
        try store.setGrade(id: teamID, GradeRecord(target: .sketch, targetId: target, grade: nil, comment: "",
                                                   deleted: true, at: 4))
        #expect(Array(try store.allGrades().keys) == [miaID.storeKey])
    }
}
