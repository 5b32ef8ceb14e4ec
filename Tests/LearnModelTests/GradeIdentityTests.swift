import Foundation
import Testing
@testable import LearnModel

@Suite struct GradeIdentityTests {
    @Test func aPupilsGradeHasOneIdPerWorkAndPupil() {
        let sketch = UUID(), mia = UUID(), ole = UUID()
        #expect(GradeIdentity.pupil(.sketch, sketch, pupil: mia) == GradeIdentity.pupil(.sketch, sketch, pupil: mia))
        #expect(GradeIdentity.pupil(.sketch, sketch, pupil: mia) != GradeIdentity.pupil(.sketch, sketch, pupil: ole))
        #expect(GradeIdentity.pupil(.sketch, sketch, pupil: mia) != GradeIdentity.pupil(.sketch, UUID(), pupil: mia))
        #expect(GradeIdentity.pupil(.sketch, sketch, pupil: mia) != GradeIdentity.team(.sketch, sketch))
        #expect(GradeIdentity.pupil(.sketch, sketch, pupil: mia) != GradeIdentity.pupil(.wordPostGame, sketch, pupil: mia))
    }

    @Test func aNameGivesTheSamePupilOnEveryDevice() {
        let mia = GradeIdentity.namedPupil("Mia")
        #expect(GradeIdentity.namedPupil("  mia ") == mia)
        // "Zoë" typed with a combining diaeresis is the same pupil.
        #expect(GradeIdentity.namedPupil("Zoe\u{308}") == GradeIdentity.namedPupil("Zoë"))
        #expect(GradeIdentity.namedPupil("Mira") != mia)
        // A fixed value: the rule must not change, or grades given earlier
        // would lose their pupil.
        #expect(mia.uuidString.lowercased() == Self.miaID)
        // A valid UUID the record accepts.
        let record = GradeRecord(target: .sketch, targetId: GradedWorkID(UUID()),
                                 pupilId: AccountID(mia), pupilName: "Mia", grade: 1, comment: "", at: 1)
        #expect(record.problem == nil)
    }

    /// SHA-256 of "teamsketch.op.v1\n<nil UUID>\npupil-name:mia", as UUID v8.
    static let miaID = "712a506e-7aed-871d-bafc-2ad99dea61b4"

    @Test func aPupilsGameResultsAreOneWork() {
        let mia = UUID()
        #expect(GradeIdentity.wordPostResults(of: mia) == GradeIdentity.wordPostResults(of: mia))
        #expect(GradeIdentity.wordPostResults(of: mia) != GradeIdentity.wordPostResults(of: UUID()))
        #expect(GradeIdentity.wordPostResults(of: mia) != mia)
    }

    @Test func aRecordWithoutANameIsStillRead() throws {
        let old = #"{"target":"sketch","targetId":"0f1e2d3c-4b5a-4978-8695-a4b3c2d1e0f9","grade":2,"comment":"","deleted":false,"at":1}"#
        let record = try JSONDecoder().decode(GradeRecord.self, from: Data(old.utf8))
        #expect(record.pupilName == nil && record.grade == 2 && record.problem == nil)
        var long = record
        long.pupilName = String(repeating: "a", count: GradeRecord.maxPupilNameCharacters + 1)
        #expect(long.problem != nil)
    }

    /// The ids are typed in the app but the same lowercase text on the
    /// wire and in the store as before, so a grade written by an older
    /// version is read, and one in capitals names the same work and pupil.
    @Test func aGradesIdsKeepTheirWireForm() throws {
        let work = UUID(), pupil = UUID()
        let shouted = #"{"target":"sketch","targetId":"\#(work.uuidString)","pupilId":"\#(pupil.uuidString)","#
            + #""grade":1,"comment":"","deleted":false,"at":1}"#
        let record = try JSONDecoder().decode(GradeRecord.self, from: Data(shouted.utf8))
        #expect(record.targetId == GradedWorkID(work) && record.pupilId == AccountID(pupil))
        let written = try JSONSerialization.jsonObject(with: JSONEncoder().encode(record)) as? [String: Any]
        #expect(written?["targetId"] as? String == work.uuidString.lowercased())
        #expect(written?["pupilId"] as? String == pupil.uuidString.lowercased())
        let empty = #"{"target":"sketch","targetId":"","grade":1,"comment":"","deleted":false,"at":1}"#
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(GradeRecord.self, from: Data(empty.utf8)) }
    }
}
