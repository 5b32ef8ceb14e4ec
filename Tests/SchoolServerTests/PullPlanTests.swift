import Foundation
import Logging
import Testing
@testable import SchoolServer

/// A pupil's first pull reads their team sketches' changes by the
/// sketch's index, also after one big sketch has filled PostgreSQL's
/// sample of the log (which made it walk the whole log in order). The
/// sample is taken before the upgrade, as on a school's database.
@Suite struct PullPlanTests {
    @Test(arguments: [Migrations.newestVersion, 15])
    func aSmallSketchIsReadByItsIndexBesideABigOne(upgradedTo version: Int64) async throws {
        let db = try await Backend.postgresql.makeLocation().open(logger: Logger(label: "test"), migrating: false)
        try await Migrations.apply(to: db, now: 0, through: 15)
        try await db.execute("""
            INSERT INTO change (opId, entity, entityId, payload, createdAt, authorId, receivedAt, sketchId, pushId)
            SELECT 'big-' || n, 'sketchOp', 'big', repeat('x', 300), 0, 'teacher', 0, 'big', 'push' FROM generate_series(1, 10000) AS n
            """)
        try await db.execute("ANALYZE change")
        try await Migrations.apply(to: db, now: 0, through: version)
        try await db.execute("""
            INSERT INTO change (opId, entity, entityId, payload, createdAt, authorId, receivedAt, sketchId, pushId)
            SELECT 'small-' || n, 'sketchOp', 'small', 'y', 0, 'mia', 0, 'small', 'push' FROM generate_series(1, 5) AS n
            """)
        try await db.execute("INSERT INTO sketchAuthor (sketchId, accountId) VALUES ('small', 'mia'), ('big', 'teacher')")
        // The shape of `SyncStore.changes`' branch of team sketches.
        let plan = try await db.query("""
            EXPLAIN SELECT c.seq FROM sketchAuthor a CROSS JOIN LATERAL
                (SELECT seq FROM change WHERE change.sketchId = a.sketchId
                 AND (change.entity <> 'sketchOp' OR change.copyOf IS NOT NULL OR change.pushId IS NULL
                      OR change.authorId <> 'mia' OR change.pushId NOT IN ('other'))
                 AND seq > 0 ORDER BY seq LIMIT 501) c
            WHERE a.accountId = 'mia' ORDER BY c.seq LIMIT 501
            """).compactMap { $0["QUERY PLAN"].text }.joined(separator: "\n")
        let byItsIndex = plan.contains("changesketch")
        if version == Migrations.newestVersion {
            #expect(byItsIndex, "\(plan)")
        } else {
            // Without the migration the same log is walked in order: what
            // this test guards against, shown to happen.
            #expect(!byItsIndex, "\(plan)")
        }
        await db.close()
    }
}
