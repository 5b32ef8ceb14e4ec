import Foundation
import LearnModel
import Logging
import TeamsketchTestSupport
import Testing
@testable import SchoolServer

/// The tables of current state (`CurrentState`) on a database made before
/// them: filled from the change log on upgrade as the push rules would
/// have kept them.
@Suite struct CurrentStateTests {
    @Test(arguments: Backend.allCases)
    func aDatabaseFromBeforeTheTablesIsFilledFromItsLog(_ backend: Backend) async throws {
        let location = try await backend.makeLocation()
        let db = try await location.open(logger: Logger(label: "test"), migrating: false)
        try await Migrations.apply(to: db, now: 1, through: 7)
        let teacher = UUID().key, mia = UUID().key, classID = UUID().key
        var seq = 0
        func insert(_ entity: String, _ entityId: String, _ payload: some Encodable, author: String,
                    subject: String? = nil, classID: String? = nil) async throws {
            seq += 1
            try await db.execute("""
                INSERT INTO change (opId, entity, entityId, payload, createdAt, authorId, receivedAt, subjectId, classId)
                VALUES (?, ?, ?, ?, 1, ?, ?, ?, ?)
                """, [.text(UUID().key), .text(entity), .text(entityId),
                      .text(String(decoding: try JSONEncoder().encode(payload), as: UTF8.self)), .text(author),
                      .int(Int64(seq)), subject.map { .text($0) } ?? .null, classID.map { .text($0) } ?? .null])
        }
        // A grade edited twice, the older edit arriving last; a round of
        // Mia's pushed by the laptop that hosted her team's game; and two
        // saves of Mia's profile.
        let target = UUID().key, gradeID = UUID().key
        let newer = GradeRecord(target: .wordPostGame, targetId: GradedWorkID(target), pupilId: AccountID(mia), grade: 1, comment: "neu", at: 200)
        var older = newer
        older.grade = 4; older.comment = "alt"; older.at = 100
        try await insert("grade", gradeID, newer, author: teacher, subject: mia)
        try await insert("grade", gradeID, older, author: teacher, subject: mia)
        let round = WordPostRoundStat(id: UUID(), gameID: UUID(), round: 1, playerName: "Mia", word: "Haus", finished: true,
                                      milliseconds: 12_000, lettersSent: 3, lettersReceived: 4, wrongPlacements: 1,
                                      playedAt: Date(timeIntervalSince1970: 1_789_000_000))
        try await insert("wordPostRoundStat", round.id.key, round, author: UUID().key, subject: mia)
        for name in ["Mia", "Mia Sophie"] {
            try await insert("profile", mia, ProfileRecord(name: name, at: 1), author: mia, subject: mia,
                             classID: classID)
        }
        try await Migrations.apply(to: db, now: 2)

        let store = SyncStore(db: db)
        let grades = try await db.query("SELECT payload FROM gradeState WHERE id = ?", [.text(gradeID)])
        #expect(try grades.map { try JSONDecoder().decode(GradeRecord.self, from: Data($0.text("payload").utf8)) } == [newer])
        let rounds = try await store.results(of: UUID(uuidString: mia)!)
        #expect(rounds == [RoundResult(round)])
        let profiles = try await db.query("SELECT payload, classId FROM profileState WHERE accountId = ?", [.text(mia)])
        #expect(profiles.count == 1 && profiles.first?["classId"].text == classID)
        #expect(try profiles.first.map { try JSONDecoder().decode(ProfileRecord.self, from: Data($0.text("payload").utf8)).name }
            == "Mia Sophie")
        await db.close()
    }
}
