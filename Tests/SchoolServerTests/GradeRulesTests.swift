import Foundation
import Testing
import LearnModel
@testable import SchoolServer

/// The server's rules for the grades the teacher's window now gives: a
/// pupil's grade on a team sketch and on their Buchstaben Post results.
/// Decided without a database, so these run without one.
@Suite struct GradeRulesTests {
    let twoB = UUID()
    let teacher: PushFacts.Person
    let other: PushFacts.Person
    let mia: PushFacts.Person
    let sketch = UUID()

    init() {
        teacher = .init(id: UUID(), isPupil: false, classID: nil)
        other = .init(id: UUID(), isPupil: false, classID: nil)
        mia = .init(id: UUID(), isPupil: true, classID: twoB)
    }

    func facts(teaching: Bool = true) -> PushFacts {
        var facts = PushFacts()
        if teaching { facts.taughtClasses = [twoB] }
        facts.sketches[sketch.uuidString.lowercased()] = .init(creator: mia, members: [mia], team: false)
        facts.people[mia.id] = mia
        return facts
    }

    func change(_ id: UUID, _ record: GradeRecord) throws -> SyncChange {
        SyncChange(opId: UUID(), entity: .grade, entityId: id.uuidString.lowercased(),
                   payload: String(decoding: try JSONEncoder().encode(record), as: UTF8.self), createdAt: 1)
    }

    func decide(_ change: SyncChange, by pusher: PushFacts.Person, _ facts: PushFacts) -> ChangeDecision {
        var facts = facts
        return ChangeRules.decide(change, by: pusher, facts: &facts)
    }

    @Test func aPupilsGradeOnASketchUnderTheirAccountIsStoredForThem() throws {
        let record = GradeRecord(target: .sketch, targetId: GradedWorkID(sketch),
                                 pupilId: AccountID(mia.id), pupilName: "Mia", grade: 2, comment: "Gut", at: 1)
        let id = GradeIdentity.pupil(.sketch, sketch, pupil: mia.id)
        let decision = decide(try change(id, record), by: teacher, facts())
        #expect(decision == .store(ChangeAudience(subjectID: mia.id.uuidString.lowercased()),
                                   .grade(id: id.uuidString.lowercased(), record: record)))
        guard case .reject = decide(try change(id, record), by: other, facts(teaching: false)) else {
            Issue.record("another teacher graded Mia"); return
        }
    }

    @Test func aPupilsGradeOnTheirGameResultsIsStoredForThem() throws {
        let target = GradeIdentity.wordPostResults(of: mia.id)
        let record = GradeRecord(target: .wordPostGame, targetId: GradedWorkID(target),
                                 pupilId: AccountID(mia.id), pupilName: "Mia", grade: 1, comment: "", at: 1)
        let id = GradeIdentity.pupil(.wordPostGame, target, pupil: mia.id)
        #expect(decide(try change(id, record), by: teacher, facts())
            == .store(ChangeAudience(subjectID: mia.id.uuidString.lowercased()), .grade(id: id.uuidString.lowercased(), record: record)))
    }

    @Test func aGradeUnderANamesIdStaysOnTheDevice() throws {
        // No account has this id: the server cannot tell whose it is.
        let named = GradeIdentity.namedPupil("Mia")
        let record = GradeRecord(target: .sketch, targetId: GradedWorkID(sketch),
                                 pupilId: AccountID(named), pupilName: "Mia", grade: 2, comment: "", at: 1)
        #expect(decide(try change(GradeIdentity.pupil(.sketch, sketch, pupil: named), record), by: teacher, facts())
            == .reject(PushRejection(.forbidden, "only a pupil's own teacher grades them")))
    }

    @Test func aNameTooLongIsRefused() throws {
        var record = GradeRecord(target: .sketch, targetId: GradedWorkID(sketch),
                                 pupilId: AccountID(mia.id), grade: 2, comment: "", at: 1)
        record.pupilName = String(repeating: "M", count: GradeRecord.maxPupilNameCharacters + 1)
        guard case .reject(let why) = decide(try change(UUID(), record), by: teacher, facts()) else {
            Issue.record("a name of any length was stored"); return
        }
        #expect(why.code == .badRequest)
    }
}
