import Foundation
import GRDB
import LearnModel
import LearnStore
import Testing

/// The store's side of sync: ids that agree across devices, acknowledging
/// what was pushed, and applying pulled pages with their cursor.
@Suite struct StoreSyncTests {
    /// What a server would hand on: another device's outbox, in order.
    private func page(from store: LocalStore, startingAt seq: Int64 = 1) throws -> [RemoteChange] {
        try store.pendingOutbox(limit: 10_000).enumerated().map { index, entry in
            RemoteChange(seq: seq + Int64(index), opId: entry.opId, entity: entry.entity, entityId: entry.entityId,
                         payload: entry.payload, createdAt: entry.createdAt)
        }
    }

    @Test func twoDevicesStoringOneTeamSketchWriteTheSameIds() throws {
        let doc = StoreFixture.document()
        let host = try LocalStore.inMemory(), member = try LocalStore.inMemory()
        try host.saveSketch(doc)
        // The member stored the creation, then the ops in two batches, one twice.
        try member.createSketch(doc.meta)
        try member.append(contentsOf: Array(doc.ops.prefix(2)), to: doc.meta.id)
        try member.append(contentsOf: Array(doc.ops.prefix(4)), to: doc.meta.id)
        try member.append(contentsOf: Array(doc.ops.dropFirst(4)), to: doc.meta.id)
        #expect(try host.pendingOutbox(limit: 100).map(\.opId) == member.pendingOutbox(limit: 100).map(\.opId))
        #expect(try member.opCount(doc.meta.id) == doc.ops.count)
        #expect(try member.loadSketch(doc.meta.id) == host.loadSketch(doc.meta.id))

        // The same strokes in an imported copy are other ops.
        var copy = doc
        copy.meta.id = UUID()
        try host.saveSketch(copy)
        let copyIds = Set(try host.pendingOutbox(limit: 100).filter { $0.entityId == copy.meta.id.uuidString.lowercased() }.map(\.opId))
        #expect(copyIds.isDisjoint(with: Set(try member.pendingOutbox(limit: 100).map(\.opId))))
    }

    /// Who started a sketch is kept with it, made here or pulled: a team
    /// sketch names its host, one drawn alone nobody.
    @Test func aSketchKeepsWhoStartedIt() throws {
        let mia = UUID()
        let host = try LocalStore.inMemory(), member = try LocalStore.inMemory()
        let when = Date(timeIntervalSince1970: 1_790_000_000)
        let team = SketchMeta(name: "Zoo", createdAt: when), alone = SketchMeta(name: "Haus", createdAt: when)
        try host.createSketch(team, origin: .team(creator: mia, nonce: UUID()))
        try host.createSketch(alone, origin: .alone(creator: mia))
        func startedBy(_ store: LocalStore) throws -> [String: SketchSummary.StartedBy] {
            Dictionary(uniqueKeysWithValues: try store.sketches().map { ($0.name, $0.startedBy) })
        }
        #expect(try startedBy(host) == ["Zoo": .team(host: mia), "Haus": .alone])
        _ = try member.applyRemote(try page(from: host), cursor: 2, for: "server#ben")
        #expect(try startedBy(member) == ["Zoo": .team(host: mia), "Haus": .alone])
    }

    @Test func aPulledPageBringsTheSketchOnceAndItsCursor() throws {
        let doc = StoreFixture.document()
        let a = try LocalStore.inMemory(), b = try LocalStore.inMemory()
        try a.saveSketch(doc)
        try a.rename(doc.meta.id, to: "Unser Garten")
        let changes = try page(from: a)

        let first = try b.applyRemote(changes, cursor: 40, for: "server#me")
        #expect(first.applied == changes.count - 0 && first.skipped == 0)
        var expected = try a.loadSketch(doc.meta.id)
        expected.meta.name = "Unser Garten"
        #expect(try b.loadSketch(doc.meta.id) == expected)
        #expect(try b.outboxCount() == 0, "pulled changes are not pushed back")
        #expect(try b.syncCursor(for: "server#me") == 40)
        #expect(try b.syncCursor(for: "other#me") == 0)

        // The same page again (a pull repeated after a crash) changes nothing.
        let second = try b.applyRemote(changes, cursor: 40, for: "server#me")
        #expect(second.applied == 1, "only the rename applies again, to the same name")
        #expect(try b.opCount(doc.meta.id) == doc.ops.count)
        // A cursor never goes back.
        _ = try b.applyRemote([], cursor: 12, for: "server#me")
        #expect(try b.syncCursor(for: "server#me") == 40)

        // What is drawn afterwards on b still waits for the server.
        try b.append(.addStroke(StoreFixture.stroke(author: "ben", color: PenColor.red.rgba, width: 3, segments: 2,
                                                    at: StoreFixture.t0 + 9000)), to: doc.meta.id)
        #expect(try b.outboxCount() == 1)
        // Its own op coming back from the server is already there.
        let back = try page(from: b, startingAt: 41)
        #expect(try b.applyRemote(back, cursor: 41, for: "server#me").alreadyHad == 1)
        #expect(try b.opCount(doc.meta.id) == doc.ops.count + 1)
        // Pushed and acknowledged, it leaves the outbox.
        try b.acknowledge(back.map(\.opId))
        #expect(try b.outboxCount() == 0)
    }

    @Test func anUnreadableChangeIsPassedOverAndTheCursorMoves() throws {
        let b = try LocalStore.inMemory()
        let sketch = UUID()
        let junk = [
            RemoteChange(seq: 1, opId: UUID(), entity: .sketch, entityId: sketch.uuidString, payload: Data("{".utf8), createdAt: Date()),
            RemoteChange(seq: 2, opId: UUID(), entity: .sketchOp, entityId: sketch.uuidString,
                         payload: Data(#"{"kind":"clear","by":"x","at":1}"#.utf8), createdAt: Date()),
            RemoteChange(seq: 3, opId: UUID(), entity: .grade, entityId: UUID().uuidString,
                         payload: try JSONEncoder().encode(GradeRecord(target: .sketch, targetId: "x", grade: 9, comment: "", at: 1)),
                         createdAt: Date()),
            RemoteChange(seq: 4, opId: UUID(), entity: .pool, entityId: "builtin.de", payload: Data("{}".utf8), createdAt: Date()),
        ]
        let report = try b.applyRemote(junk, cursor: 4, for: "k")
        #expect(report.skipped == 4 && report.applied == 0)
        #expect(try b.syncCursor(for: "k") == 4)
        #expect(try b.sketches().isEmpty)
    }

    @Test func aPageThatFailsHalfWayLeavesNothingAndNoCursor() throws {
        try withStoreTempDirectory { dir in
            let path = dir + "/b.sqlite"
            let doc = StoreFixture.document()
            let a = try LocalStore.inMemory()
            try a.saveSketch(doc)
            try a.setGrade(id: UUID(), GradeRecord(target: .sketch, targetId: GradedWorkID(doc.meta.id),
                                                    grade: 2, comment: "Gut", at: 1))
            let changes = try page(from: a)
            let b = try LocalStore(path: path)
            // The disk refuses the last write of the page, as a full disk would.
            let raw = try DatabaseQueue(path: path)
            try raw.write { try $0.execute(sql: "CREATE TRIGGER refuse BEFORE INSERT ON grade BEGIN SELECT RAISE(ABORT, 'disk full'); END") }
            try raw.close()
            #expect(throws: (any Error).self) { try b.applyRemote(changes, cursor: 9, for: "k") }
            #expect(try b.sketches().isEmpty)
            #expect(try b.syncCursor(for: "k") == 0)
        }
    }

    @Test func renamesAndDeletionsFollowTheServersOrderAndGradesTheirEditTime() throws {
        let doc = StoreFixture.document()
        let a = try LocalStore.inMemory(), b = try LocalStore.inMemory()
        try a.saveSketch(doc)
        try b.applyRemote(try page(from: a), cursor: 10, for: "k")
        let target = GradedWorkID(doc.meta.id)
        let gradeID = UUID().uuidString.lowercased()
        func change(_ seq: Int64, _ entity: OutboxEntity, _ id: String, _ value: some Encodable) throws -> RemoteChange {
            RemoteChange(seq: seq, opId: UUID(), entity: entity, entityId: id, payload: try JSONEncoder().encode(value), createdAt: Date())
        }
        try b.applyRemote([
            try change(11, .sketch, target.text, SketchChange.rename("Erst", at: 5)),
            try change(12, .sketch, target.text, SketchChange.rename("Dann", at: 1)),
            try change(13, .grade, gradeID, GradeRecord(target: .sketch, targetId: target, grade: 3, comment: "", at: 9)),
            try change(14, .grade, gradeID, GradeRecord(target: .sketch, targetId: target, grade: 1, comment: "Toll", at: 2)),
        ], cursor: 14, for: "k")
        // Renames follow the server's order; a grade is its latest edit,
        // however late an older one arrives (`GradeRecord.supersedes`).
        #expect(try b.sketches().first?.name == "Dann")
        #expect(try b.grades(forTarget: target).map(\.grade) == [3])
        // The older edit is the grade's history, for the teacher to see; an
        // edit made here replaces the kept one and it joins the history,
        // newest first; the same edit arriving again is not kept twice.
        let kept = try #require(try b.grades(forTarget: target).first)
        #expect(try b.gradeHistory(replacedBy: kept).map(\.comment) == ["Toll"])
        var mine = kept
        mine.grade = 2; mine.comment = "Besser"; mine.at = 20
        try b.setGrade(id: UUID(uuidString: gradeID)!, mine)
        try b.applyRemote([try change(15, .grade, gradeID, GradeRecord(target: .sketch, targetId: target, grade: 1,
                                                                       comment: "Toll", at: 2))], cursor: 15, for: "k")
        let now = try #require(try b.grades(forTarget: target).first)
        #expect(now.comment == "Besser")
        #expect(try b.gradeHistory(replacedBy: now).map(\.grade) == [3, 1])
        try b.applyRemote([try change(16, .sketch, target.text, SketchChange.delete(at: 3))], cursor: 16, for: "k")
        #expect(try b.sketches().isEmpty)
        // Ops that arrive for a deleted sketch (stored on the server before
        // its deletion) are kept with it, unseen: a restore brings it back
        // whole.
        let late = StoreFixture.stroke(author: "x", color: PenColor.red.rgba, width: 2, segments: 1, at: StoreFixture.t0 + 99_000)
        let before = try #require(try b.opCount(doc.meta.id))
        try b.applyRemote([RemoteChange(seq: 17, opId: UUID(), entity: .sketchOp, entityId: target.text,
                                        payload: try SketchOpPayload.encode(.addStroke(late)), createdAt: Date())],
                          cursor: 17, for: "k")
        #expect(try b.sketches().isEmpty)
        try b.applyRemote([try change(18, .sketch, target.text, SketchChange.restore(at: 4))], cursor: 18, for: "k")
        #expect(try b.opCount(doc.meta.id) == before + 1)
        #expect(try b.loadSketch(doc.meta.id).strokes.contains { $0.id == late.id })
    }

    /// A sketch deleted elsewhere while strokes drawn here wait: the copy
    /// keeps every stroke under a name within the limit that still says it
    /// is a copy, waits for the server whole, and the original's waiting
    /// rows go (the server would only refuse them).
    @Test func aCopyKeepsTheDrawingAndANameWithinTheLimit() throws {
        let store = try LocalStore.inMemory()
        let long = String(repeating: "Zoo", count: SketchLimits.maxNameLength / 3)
        let meta = SketchMeta(name: long, createdAt: Date(timeIntervalSince1970: 1_790_000_000))
        try store.createSketch(meta)
        for k in 0..<3 {
            try store.append(.addStroke(StoreFixture.stroke(author: "Mia", color: PenColor.red.rgba, width: 4, segments: 2,
                                                            at: StoreFixture.t0 + Int64(k) * 1000)), to: meta.id)
        }
        let kept = try #require(try store.keepAsCopy(meta.id, copyName: LocalStore.defaultCopyName))
        #expect(kept.copy.hasSuffix(" (copy)") && kept.copy.unicodeScalars.count <= SketchLimits.maxNameLength)
        let copy = try #require(try store.sketches().first)
        #expect(try store.sketches().count == 1 && copy.name == kept.copy)
        #expect(try store.loadSketch(copy.id).strokes.count == 3)
        let waiting = try store.pendingOutbox(limit: 100)
        #expect(waiting.allSatisfy { $0.entityId == copy.id.uuidString.lowercased() } && waiting.count == 4)
        #expect(try store.keepAsCopy(meta.id, copyName: LocalStore.defaultCopyName) == nil)
    }

    /// A sketch kept as a copy, brought back by the teacher, drawn in and
    /// deleted again: the second copy is a new one with everything, not
    /// the first copy again.
    @Test func aSketchBroughtBackAndDeletedAgainIsKeptAsANewCopy() throws {
        let store = try LocalStore.inMemory()
        let meta = SketchMeta(name: "Haus", createdAt: Date(timeIntervalSince1970: 1_790_000_000))
        try store.createSketch(meta)
        let strokes = (0..<2).map { k in
            SketchOp.addStroke(StoreFixture.stroke(author: "Mia", color: PenColor.red.rgba, width: 4, segments: 2,
                                                   at: StoreFixture.t0 + Int64(k) * 1000))
        }
        try store.append(strokes[0], to: meta.id)
        let first = try #require(try store.keepAsCopy(meta.id, copyName: LocalStore.defaultCopyName))
        // While deleted, asking again names the same copy.
        #expect(try store.keepDeletedAsCopy(meta.id, copyName: LocalStore.defaultCopyName) == first)
        try store.restoreSketch(meta.id)
        try store.append(strokes[1], to: meta.id)
        let second = try #require(try store.keepAsCopy(meta.id, copyName: LocalStore.defaultCopyName))
        #expect(second.copyID != first.copyID)
        #expect(try store.loadSketch(second.copyID).ops == strokes)
        #expect(try !store.sketches().contains { $0.id == meta.id })
    }

    @Test func recordsMadeHereWaitForTheServerAndBadOnesAreRefused() throws {
        let store = try LocalStore.inMemory()
        let classID = UUID().uuidString.lowercased()
        try store.setClassSettings(classID: classID, ClassSettingsRecord(soundsOn: false, at: 1))
        try store.setProfile(accountID: "me", ProfileRecord(name: "Mia", at: 1))
        try store.setPoolAssignment(poolID: "p1", PoolAssignment(classId: classID, assigned: true, at: 1))
        #expect(try store.classSettings(classID: classID)?.soundsOn == false)
        #expect(try store.profile(accountID: "me")?.name == "Mia")
        #expect(try store.assignedClasses(poolID: "p1") == [classID])
        #expect(try store.pendingOutbox(limit: 10).map(\.entity) == [.classSettings, .profile, .poolAssignment])
        #expect(throws: StoreError.self) {
            try store.setGrade(id: UUID(), GradeRecord(target: .sketch, targetId: GradedWorkID(UUID()), grade: 0, comment: "", at: 1))
        }
        #expect(throws: StoreError.self) {
            try store.setClassSettings(classID: classID, ClassSettingsRecord(defaultTimeLimitMinutes: 500, at: 1))
        }
        #expect(try store.outboxCount() == 3)
    }
}
