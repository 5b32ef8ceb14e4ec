import Foundation
import TeamsketchTestSupport
import Testing
@testable import SchoolServer

/// A device pulls by a cursor: everything after the last change it saw.
/// That only works if a change never commits behind a cursor a device
/// already holds, so pushes that run at the same time must not let a later
/// one's changes be pulled before an earlier one's commit.
@Suite struct CommitOrderTests {
    /// Eight pupils push at once, some pushes only adding ops to a sketch
    /// and some also starting one (the two ways a push is stored), while
    /// their teacher's laptop pulls small pages as fast as it can, and two
    /// more of the teacher's laptops push too. It ends with every change, each once, and each
    /// sketch counts every op.
    @Test(arguments: Backend.allCases)
    func aDevicePullingWhilePushesRunMissesNoChange(_ backend: Backend) async throws {
        try await TestServer(backend).run { api in
            let (id, token) = try await api.teacher("Frau Berg")
            let teacher = Account(id: try #require(UUID(uuidString: id)), role: .teacher, name: "Frau Berg")
            let names = ["Mia", "Ben", "Ole", "Eva", "Tom", "Ida", "Jan", "Lea"]
            let twoB = try await api.schoolClass("2b", teacher: token, pupils: names)
            let store = SyncStore(db: api.database)
            let devices = names.count, pushes = 30, opsPerPush = 6, slowPushes = 10
            // Each pupil draws in a sketch of their own, so no push waits
            // for another on a row: only their turns order them.
            var pupils: [Account] = [], sketches: [UUID] = []
            for name in names {
                let pupil = try #require(twoB.pupils[name])
                pupils.append(Account(id: try #require(UUID(uuidString: pupil.id)), role: .pupil, name: name,
                                      classID: UUID(uuidString: twoB.id)))
                sketches.append(UUID())
                #expect(try await api.push([Changes.create(sketches.last!)], token: pupil.token).rejected.isEmpty)
            }

            let pushed = try await withThrowingTaskGroup(of: [String].self) { group in
                for device in 0..<devices {
                    let sketch = sketches[device], pupil = pupils[device]
                    group.addTask {
                        var mine: [String] = []
                        for push in 0..<pushes {
                            // Every other push starts a sketch of its own as well.
                            let started = push % 2 == 0 ? UUID().key : nil
                            var decided: [(SyncChange, ChangeDecision)] = []
                            if let started {
                                let creation = SyncChange(opId: UUID(), entity: .sketch, entityId: started,
                                                          payload: "{}", createdAt: 1)
                                decided.append((creation, .store(ChangeAudience(sketchID: started),
                                                                 .sketch(id: started, change: nil,
                                                                         started: SketchStart(creator: pupil.id.key, team: false)))))
                            }
                            for op in 0..<opsPerPush {
                                let change = SyncChange(opId: UUID(), entity: .sketchOp, entityId: sketch.key,
                                                        payload: #"{"device":\#(device),"push":\#(push),"op":\#(op)}"#,
                                                        createdAt: 1)
                                decided.append((change, .store(ChangeAudience(sketchID: sketch.key),
                                                               .sketch(id: sketch.key, change: nil, started: nil))))
                            }
                            try await store.store(decided, pusher: pupil, now: api.clock.now)
                            mine += decided.map { $0.0.opId.key }
                        }
                        return mine
                    }
                }
                // The teacher's two laptops at once: one pushes records
                // that touch no sketch, the other starts sketches. Both
                // count against one row of the day's usage, which neither
                // may hold while waiting for its turn.
                for laptop in 0..<2 {
                    group.addTask {
                        var mine: [String] = []
                        for _ in 0..<pushes {
                            let id = UUID().key
                            let change = SyncChange(opId: UUID(), entity: laptop == 0 ? .classSettings : .sketch,
                                                    entityId: id, payload: "{}", createdAt: 1)
                            let effect: ChangeEffect = laptop == 0 ? .none
                                : .sketch(id: id, change: nil, started: SketchStart(creator: teacher.id.key, team: false))
                            try await store.store([(change, .store(ChangeAudience(), effect))], pusher: teacher, now: api.clock.now)
                            mine.append(change.opId.key)
                        }
                        return mine
                    }
                }
                // A push that keeps its turn a while (a big one, or one on
                // a busy machine): nothing pushed meanwhile may be pulled
                // ahead of it.
                let slowPusher = pupils[0].id.key
                group.addTask {
                    var mine: [String] = []
                    for _ in 0..<slowPushes {
                        let opId = UUID().key
                        let pause = api.database.dialect == .postgresql ? [SQLStatement("SELECT pg_sleep(0.05)")] : []
                        try await api.database.serialized([SQLStatement("""
                            INSERT INTO change (opId, entity, entityId, payload, payloadHash, createdAt, authorId, receivedAt)
                            VALUES (?, 'profile', ?, '{}', '', 1, ?, 1)
                            """, [.text(opId), .text(slowPusher), .text(slowPusher)])] + pause)
                        mine.append(opId)
                    }
                    return mine
                }
                // The pulling device, until every push has answered and
                // once more after.
                group.addTask {
                    var seen: [String] = []
                    var cursor: Int64 = 0
                    var finished = false
                    while true {
                        // A push that failed ends the test, not this loop.
                        try Task.checkCancellation()
                        let total = try await api.database.query("SELECT COUNT(*) AS n FROM change")
                            .first?["n"].int ?? 0
                        let done = total >= Int64(devices + devices * pushes * opsPerPush + devices * pushes / 2 + slowPushes + 2 * pushes)
                        let page = try await store.changes(visibleTo: teacher, after: cursor, limit: 7)
                        #expect(page.cursor >= cursor)
                        seen += page.changes.map { $0.change.opId.key }
                        cursor = page.cursor
                        if !page.more {
                            if finished { break }
                            finished = done
                        }
                    }
                    return ["pulled"] + seen
                }
                var pushed: [String] = [], pulled: [String] = []
                for try await ids in group {
                    if ids.first == "pulled" { pulled = Array(ids.dropFirst()) } else { pushed += ids }
                }
                return (pushed, pulled)
            }
            let (all, pulled) = pushed
            let missing = Set(all).subtracting(pulled)
            #expect(missing.isEmpty, "\(missing.count) of \(all.count) changes never pulled")
            #expect(pulled.count == Set(pulled).count, "a change pulled twice")
            for sketch in sketches {
                let counted = try await api.database.query("SELECT opCount FROM sketch WHERE id = ?", [.text(sketch.key)])
                #expect(counted.first?["opCount"].int == Int64(pushes * opsPerPush))
            }
        }
    }
}
