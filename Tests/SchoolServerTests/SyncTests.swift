import Foundation
import HTTPTypes
import LearnModel
import Testing
@testable import SchoolServer
import TeamsketchCore

@Suite struct SyncTests {
    @Test(arguments: Backend.allCases)
    func aTeamSketchIsStoredOnceWithEveryCoAuthor(_ backend: Backend) async throws {
        try await TestServer(backend).run { api in
            let (_, berg) = try await api.teacher("Frau Berg")
            let twoB = try await api.schoolClass("2b", teacher: berg, pupils: ["Mia", "Ben"])
            let mia = twoB.pupils["Mia"]!, ben = twoB.pupils["Ben"]!
            // Both members' stores hold the same sketch, with the same ids:
            // Mia hosted it and her laptop names Ben, whom she let in; Ben's
            // laptop names Ben too.
            let (sketch, create) = Changes.hosted(by: mia.id)
            let first = Changes.stroke(sketch, author: "Mia"), second = Changes.stroke(sketch, author: "Ben", x: 300)
            let member = Changes.member(ben.id, of: sketch)
            let fromMia = try await api.push([create, member, first, second], token: mia.token)
            #expect(fromMia.status == .ok)
            #expect(fromMia.accepted.count == 4 && fromMia.rejected.isEmpty)
            let own = Changes.stroke(sketch, author: "Ben", x: 500)
            let fromBen = try await api.push([create, member, first, second, own], token: ben.token)
            #expect(fromBen.accepted.count == 5 && fromBen.rejected.isEmpty)

            let listed = try await api.call(.get, "/sketches", token: mia.token).array
            #expect(listed.count == 1)
            #expect(listed.first?["opCount"] as? Int == 3)
            #expect(Set(listed.first?["authors"] as? [String] ?? []) == [mia.id, ben.id])
            #expect(listed.first?["name"] as? String == "Zoo")

            let pulled = try await api.pullAll(token: mia.token)
            #expect(pulled.count == 5)
            #expect(pulled.filter { $0["entity"] as? String == "sketchOp" }.count == 3)
            #expect(pulled.ids().contains(own["opId"] as! String))
            // The teacher sees the sketch too, and each change once.
            #expect(try await api.pullAll(token: berg).count == 5)
        }
    }

    @Test(arguments: Backend.allCases)
    func nobodyOutsideTheClassJoinsOrSeesASketch(_ backend: Backend) async throws {
        try await TestServer(backend).run { api in
            let (_, berg) = try await api.teacher("Frau Berg")
            let (_, kurz) = try await api.teacher("Herr Kurz")
            let twoB = try await api.schoolClass("2b", teacher: berg, pupils: ["Mia"])
            let threeA = try await api.schoolClass("3a", teacher: kurz, pupils: ["Eve"])
            let mia = twoB.pupils["Mia"]!, eve = threeA.pupils["Eve"]!
            let sketch = UUID()
            let miasStroke = Changes.stroke(sketch)
            _ = try await api.push([Changes.create(sketch), miasStroke], token: mia.token)

            let intrusion = Changes.stroke(sketch, author: "Eve")
            let answer = try await api.push([intrusion], token: eve.token)
            #expect(answer.status == .ok)
            #expect(answer.rejected[intrusion["opId"] as! String] == "forbidden")
            // Re-sending Mia's own op gains her nothing either.
            let copy = try await api.push([miasStroke], token: eve.token)
            #expect(copy.rejected[miasStroke["opId"] as! String] == "forbidden")

            #expect(try await api.pullAll(token: eve.token).isEmpty)
            #expect(try await api.call(.get, "/sketches", token: eve.token).array.isEmpty)
            #expect(try await api.call(.get, "/sketches/\(sketch)/thumbnail", token: eve.token).status == .notFound)
            #expect(try await api.call(.get, "/sketches", token: kurz).array.isEmpty)
            #expect(try await api.call(.get, "/sketches/\(sketch)/image", token: kurz).status == .notFound)
            #expect(try await api.call(.get, "/sketches", token: berg).array.count == 1)
        }
    }

    @Test(arguments: Backend.allCases)
    func theServerDrawsThumbnailsAndFullImages(_ backend: Backend) async throws {
        try await TestServer(backend).run { api in
            let (_, berg) = try await api.teacher("Frau Berg")
            let mia = try await api.schoolClass("2b", teacher: berg, pupils: ["Mia"]).pupils["Mia"]!
            let sketch = UUID()
            _ = try await api.push([Changes.create(sketch), Changes.stroke(sketch)], token: mia.token)
            let thumbnail = try await api.call(.get, "/sketches/\(sketch)/thumbnail", token: berg)
            #expect(thumbnail.status == .ok)
            #expect(thumbnail.headers[.contentType] == "image/png")
            #expect(Array(thumbnail.body.prefix(4)) == [0x89, 0x50, 0x4E, 0x47])
            #expect(pngSize(thumbnail.body) == [256, 160])
            let full = try await api.call(.get, "/sketches/\(sketch)/image", token: mia.token)
            #expect(pngSize(full.body) == [1600, 1000])
            // The red stroke is there: not every pixel is the sheet's white.
            #expect(full.body.count > 5_000)

            // A new op makes a new thumbnail rather than the kept one.
            let before = thumbnail.body
            _ = try await api.push([Changes.stroke(sketch, x: 700)], token: mia.token)
            let after = try await api.call(.get, "/sketches/\(sketch)/thumbnail", token: berg).body
            #expect(after != before)
        }
    }

    @Test(arguments: Backend.allCases)
    func pullsComeInPagesAfterACursorWithNothingTwice(_ backend: Backend) async throws {
        try await TestServer(backend).run { api in
            let (_, berg) = try await api.teacher("Frau Berg")
            let mia = try await api.schoolClass("2b", teacher: berg, pupils: ["Mia"]).pupils["Mia"]!
            let sketch = UUID()
            var pushed = [Changes.create(sketch)]
            for i in 0..<1_100 { pushed.append(Changes.stroke(sketch, x: Double(i))) }
            for batch in stride(from: 0, to: pushed.count, by: 500) {
                let answer = try await api.push(Array(pushed[batch..<min(batch + 500, pushed.count)]), token: mia.token)
                #expect(answer.rejected.isEmpty)
            }
            let first = try await api.call(.get, "/sync/changes?after=0&limit=1000", token: mia.token)
            #expect(first.object["more"] as? Bool == true)
            #expect((first.object["changes"] as? [Any])?.count == 1000)
            let pulled = try await api.pullAll(token: mia.token, limit: 333)
            #expect(pulled.ids() == pushed.ids())
            let seqs = pulled.compactMap { ($0["seq"] as? NSNumber)?.int64Value }
            #expect(seqs == seqs.sorted() && Set(seqs).count == seqs.count)
            // Resuming from the last cursor finds nothing new.
            let last = try #require(seqs.last)
            let rest = try await api.call(.get, "/sync/changes?after=\(last)", token: mia.token)
            #expect((rest.object["changes"] as? [Any])?.isEmpty == true)
            #expect((rest.object["cursor"] as? NSNumber)?.int64Value == last)
            // Pushing everything again stores nothing twice.
            let again = try await api.push(Array(pushed.prefix(500)), token: mia.token)
            #expect(again.accepted.count == 500)
            #expect(try await api.pullAll(token: mia.token).count == pushed.count)
        }
    }

    @Test(arguments: Backend.allCases)
    func aPageOfLongStrokesStopsAtItsSizeAndTheRestFollows(_ backend: Backend) async throws {
        try await TestServer(backend).run { api in
            let (_, berg) = try await api.teacher("Frau Berg")
            let mia = try await api.schoolClass("2b", teacher: berg, pupils: ["Mia"]).pupils["Mia"]!
            let sketch = UUID()
            // Sixteen strokes of about 0.7 MB each: more than one page may carry.
            var pushed = [Changes.create(sketch)]
            for i in 0..<16 {
                let segments = (0..<8_000).map { k in
                    CubicSegment(c1: Point(Double(k) + 0.123456789, 100.123456789), c2: Point(Double(k) + 0.5, 200.987654321),
                                 end: Point(Double(k) + 1, 300.192837465))
                }
                let stroke = Stroke(author: "Mia", color: RGBA(r: 0, g: 0, b: 0, a: 1), width: 2, start: Point(0, Double(i)),
                                    segments: segments, startedAt: Changes.start, endedAt: Changes.start)
                pushed.append(Changes.op(.addStroke(stroke), in: sketch))
            }
            for batch in stride(from: 0, to: pushed.count, by: 4) {
                let answer = try await api.push(Array(pushed[batch..<min(batch + 4, pushed.count)]), token: mia.token)
                #expect(answer.status == .ok && answer.rejected.isEmpty)
            }
            let first = try await api.call(.get, "/sync/changes?limit=1000", token: mia.token)
            let firstCount = (first.object["changes"] as? [Any])?.count ?? 0
            #expect(firstCount > 1 && firstCount < pushed.count)
            #expect(first.object["more"] as? Bool == true)
            #expect(first.body.count < 9 << 20)
            #expect(try await api.pullAll(token: mia.token, limit: 1000).ids() == pushed.ids())
        }
    }

    @Test(arguments: Backend.allCases)
    func aDeletedSketchLeavesTheListAndTakesNoMoreOps(_ backend: Backend) async throws {
        try await TestServer(backend).run { api in
            let (_, berg) = try await api.teacher("Frau Berg")
            let mia = try await api.schoolClass("2b", teacher: berg, pupils: ["Mia"]).pupils["Mia"]!
            let sketch = UUID()
            _ = try await api.push([Changes.create(sketch), Changes.stroke(sketch),
                                    Changes.sketchChange(sketch, .rename("Zoo am Abend", at: 1_790_000_100_000))],
                                   token: mia.token)
            #expect(try await api.call(.get, "/sketches", token: mia.token).array.first?["name"] as? String == "Zoo am Abend")
            let delete = Changes.sketchChange(sketch, .delete(at: 1_790_000_200_000))
            #expect(try await api.push([delete], token: mia.token).rejected.isEmpty)
            #expect(try await api.call(.get, "/sketches", token: mia.token).array.isEmpty)
            #expect(try await api.call(.get, "/sketches/\(sketch)/thumbnail", token: mia.token).status == .notFound)
            let late = Changes.stroke(sketch)
            #expect(try await api.push([late], token: mia.token).rejected[late["opId"] as! String] == "conflict")
            // The tombstone travels, so other devices delete it too.
            let pulled = try await api.pullAll(token: mia.token)
            #expect(pulled.last?["opId"] as? String == delete["opId"] as? String)
        }
    }

    /// A stroke's Xournal++ styles travel through the server whole; styles
    /// outside the sketch limits are refused like any other bad op.
    @Test(arguments: Backend.allCases)
    func strokeStylesSyncAndHostileOnesAreRefused(_ backend: Backend) async throws {
        try await TestServer(backend).run { api in
            let (_, berg) = try await api.teacher("Frau Berg")
            let mia = try await api.schoolClass("2b", teacher: berg, pupils: ["Mia"]).pupils["Mia"]!
            let sketch = UUID()
            let (styled, good) = Changes.styledStroke(sketch)
            let (_, wrongCount) = Changes.styledStroke(sketch) { $0.widths = [2] }
            let (_, hugeFill) = Changes.styledStroke(sketch) { $0.fill = 40 }
            let (_, longDashes) = Changes.styledStroke(sketch) { $0.dashes = Array(repeating: 1, count: 1000) }
            let create = Changes.create(sketch)
            let answer = try await api.push([create, good, wrongCount, hugeFill, longDashes], token: mia.token)
            #expect(answer.status == .ok)
            #expect(answer.accepted == [create["opId"] as! String, good["opId"] as! String])
            #expect(answer.rejected.count == 3 && answer.rejected.values.allSatisfy { $0 == "badRequest" })
            let pulled = try await api.pullAll(token: mia.token).filter { $0["entity"] as? String == "sketchOp" }
            try #require(pulled.count == 1)
            let payload = try #require(pulled[0]["payload"] as? String)
            #expect(SketchOpPayload.decode(Data(payload.utf8)) == .addStroke(styled))
        }
    }

    @Test(arguments: Backend.allCases)
    func eachBadChangeIsRefusedOnItsOwnAndTheRestStored(_ backend: Backend) async throws {
        try await TestServer(backend).run { api in
            let (_, berg) = try await api.teacher("Frau Berg")
            let mia = try await api.schoolClass("2b", teacher: berg, pupils: ["Mia"]).pupils["Mia"]!
            let sketch = UUID()
            let good = Changes.stroke(sketch)
            var notJSON = Changes.stroke(sketch); notJSON["payload"] = "{'; DROP TABLE change; --"
            let huge = Changes.change(UUID(), "sketchOp", sketch.uuidString,
                                      Data(("{\"kind\":\"clear\",\"by\":\"" + String(repeating: "a", count: 1 << 20) + "\",\"at\":1}").utf8))
            let offCanvas = Changes.change(UUID(), "sketchOp", sketch.uuidString,
                                           Data(#"{"kind":"clear","by":"Mia","at":99999999999999999}"#.utf8))
            let builtIn = Changes.record("pool", "builtin.de", PoolChange(change: .delete, at: 1))
            let create = Changes.create(sketch)
            let answer = try await api.push([create, good, notJSON, huge, offCanvas, builtIn],
                                            token: mia.token)
            #expect(answer.status == .ok)
            #expect(answer.accepted == [create["opId"] as! String, good["opId"] as! String])
            #expect(answer.rejected.count == 4)
            #expect(answer.rejected.values.allSatisfy { $0 == "badRequest" })

            // What refuses a whole push: a body that is not the spec's.
            #expect(try await api.call(.post, "/sync/push", token: mia.token, json: ["changes": []]).status == .badRequest)
            #expect(try await api.call(.post, "/sync/push", token: mia.token,
                                       json: ["changes": [good], "extra": 1]).status == .badRequest)
            #expect(try await api.call(.post, "/sync/push", token: mia.token,
                                       json: ["changes": Array(repeating: good, count: 501)]).status == .badRequest)
            var badOp = good; badOp["opId"] = "nope"
            #expect(try await api.call(.post, "/sync/push", token: mia.token, json: ["changes": [badOp]]).status == .badRequest)
            var badEntityID = good; badEntityID["entityId"] = "../../etc/passwd"
            #expect(try await api.call(.post, "/sync/push", token: mia.token, json: ["changes": [badEntityID]]).status == .badRequest)
            var farFuture = good; farFuture["createdAt"] = Int64.max
            #expect(try await api.call(.post, "/sync/push", token: mia.token, json: ["changes": [farFuture]]).status == .badRequest)
            #expect(try await api.call(.get, "/sync/changes?after=-1", token: mia.token).status == .badRequest)
            #expect(try await api.call(.get, "/sync/changes?limit=1001", token: mia.token).status == .badRequest)
            #expect(try await api.call(.get, "/sync/changes?limit=abc", token: mia.token).status == .badRequest)
            #expect(try await api.call(.post, "/sync/push", token: mia.token,
                                       raw: Array(repeating: UInt8(ascii: "x"), count: 9 << 20)).status == .contentTooLarge)
        }
    }

    @Test(arguments: Backend.allCases)
    func aPullLeavesOutOnlyWhatTheCallersOwnPushesStored(_ backend: Backend) async throws {
        try await TestServer(backend).run { api in
            let (_, berg) = try await api.teacher("Frau Berg")
            let twoB = try await api.schoolClass("2b", teacher: berg, pupils: ["Mia", "Ben"])
            let mia = twoB.pupils["Mia"]!, ben = twoB.pupils["Ben"]!
            let (sketch, create) = Changes.hosted(by: mia.id)
            let first = try await api.pushMarked([create, Changes.stroke(sketch, author: "Mia")], token: mia.token)
            // Ben names himself later: the push that names him makes his
            // copies of what came before.
            let bens = Changes.stroke(sketch, author: "Ben", x: 300)
            let named = try await api.pushMarked([Changes.member(ben.id, of: sketch), bens], token: ben.token)
            let miasLast = Changes.stroke(sketch, author: "Mia", x: 500)
            let last = try await api.pushMarked([miasLast], token: mia.token)

            let whole = try await api.pullPages(token: mia.token)
            #expect(whole.changes.count == 5)
            let skipped = try await api.pullPages(token: mia.token, limit: 2, skip: [first, last])
            // Mia's strokes stay out; the rest comes (her sketch's creation
            // too: only ops are left out), and the cursor still moves past
            // them all.
            let miasOps = whole.changes.filter { $0["authorId"] as? String == mia.id && $0["entity"] as? String == "sketchOp" }
            #expect(miasOps.count == 2)
            #expect(Set(skipped.changes.ids()) == Set(whole.changes.ids()).subtracting(miasOps.ids()))
            #expect(skipped.changes.ids().contains(bens["opId"] as! String))
            #expect(skipped.changes.ids().contains(create["opId"] as! String))
            #expect(skipped.cursor == whole.cursor)
            // Left-out ops do not count towards a page: right after the
            // creation, a page of one skips Mia's stroke and holds the
            // change naming Ben.
            var afterCreation: Int64 = 0
            while true {
                let page = try await api.call(.get, "/sync/changes?after=\(afterCreation)&limit=1", token: mia.token).object
                afterCreation = try #require((page["cursor"] as? NSNumber)?.int64Value)
                if (page["changes"] as? [[String: Any]])?.ids() == [create["opId"] as! String] { break }
            }
            let pastMias = try await api.call(.get, "/sync/changes?after=\(afterCreation)&limit=1&skip=\(first)", token: mia.token)
            let naming = try #require(whole.changes.first { $0["entity"] as? String == "sketch" && $0["opId"] as? String != create["opId"] as? String })
            #expect((pastMias.object["changes"] as? [[String: Any]])?.ids() == [naming["opId"] as! String])
            #expect(((pastMias.object["cursor"] as? NSNumber)?.int64Value ?? 0) > afterCreation + 1)
            #expect(pastMias.object["more"] as? Bool == true)

            // Another's pushes are not left out for Ben, and his own push
            // leaves out what he sent but not the copies it made for him.
            let bensWhole = try await api.pullAll(token: ben.token)
            let bensSkipped = try await api.pullAll(token: ben.token, skip: [first, last, named])
            #expect(Set(bensSkipped.ids()) == Set(bensWhole.ids()).subtracting([bens["opId"] as! String]))
            #expect(bensSkipped.ids().contains(miasLast["opId"] as! String))
            // The teacher gets everything whatever she names.
            #expect(try await api.pullAll(token: berg, skip: [first, named, last]).count == 5)

            // At most 64 pushes, as many as a laptop names, each a UUID.
            #expect(SyncService.skippedPushes == SchoolAPI.maxSkippedPushes)
            let most = (1...SchoolAPI.maxSkippedPushes).map { _ in "&skip=\(UUID().uuidString.lowercased())" }.joined()
            #expect(try await api.call(.get, "/sync/changes?after=0\(most)", token: mia.token).status == .ok)
            #expect(try await api.call(.get, "/sync/changes?after=0\(most)&skip=\(first)", token: mia.token).status == .badRequest)
            #expect(try await api.call(.get, "/sync/changes?after=0&skip=zoo", token: mia.token).status == .badRequest)
        }
    }

    @Test(arguments: Backend.allCases)
    func gradesSettingsProfilesAndPoolsReachOnlyThoseTheyAreFor(_ backend: Backend) async throws {
        try await TestServer(backend).run { api in
            let (_, berg) = try await api.teacher("Frau Berg")
            let (_, kurz) = try await api.teacher("Herr Kurz")
            let twoB = try await api.schoolClass("2b", teacher: berg, pupils: ["Mia", "Ben"])
            let threeA = try await api.schoolClass("3a", teacher: kurz, pupils: ["Eve"])
            let mia = twoB.pupils["Mia"]!, ben = twoB.pupils["Ben"]!, eve = threeA.pupils["Eve"]!
            let sketch = UUID()
            _ = try await api.push([Changes.create(sketch), Changes.stroke(sketch)], token: mia.token)

            // A grade: only Mia's teacher gives it, and only Mia sees hers.
            let grade = GradeRecord(target: .sketch, targetId: GradedWorkID(sketch), pupilId: AccountID(mia.id),
                                    grade: 2, comment: "Schöne Farben!", at: 1)
            #expect(try await api.push([Changes.grade(grade)], token: kurz).rejected.count == 1)
            #expect(try await api.push([Changes.grade(grade)], token: mia.token).rejected.count == 1)
            #expect(try await api.push([Changes.grade(grade)], token: berg).rejected.isEmpty)
            var changed = grade; changed.grade = 1; changed.at = 2
            #expect(try await api.push([Changes.grade(changed)], token: kurz).rejected.count == 1)
            #expect(try await api.push([Changes.grade(changed)], token: berg).rejected.isEmpty)
            var outOfRange = grade; outOfRange.grade = 6
            #expect(try await api.push([Changes.grade(outOfRange)], token: berg)
                .rejected.values.first == "badRequest")
            let miaGrades = try await api.pullAll(token: mia.token).filter { $0["entity"] as? String == "grade" }
            #expect(miaGrades.count == 2)
            #expect(try await api.pullAll(token: ben.token).filter { $0["entity"] as? String == "grade" }.isEmpty)

            // Class settings: the class's teacher sets them; the class sees them.
            let settings = ClassSettingsRecord(soundsOn: false, at: 3)
            #expect(try await api.push([Changes.record("classSettings", twoB.id, settings)], token: kurz).rejected.count == 1)
            #expect(try await api.push([Changes.record("classSettings", twoB.id, settings)], token: ben.token).rejected.count == 1)
            #expect(try await api.push([Changes.record("classSettings", twoB.id, settings)], token: berg).rejected.isEmpty)
            #expect(try await api.pullAll(token: ben.token).contains { $0["entity"] as? String == "classSettings" })
            #expect(!(try await api.pullAll(token: eve.token).contains { $0["entity"] as? String == "classSettings" }))

            // A profile is its owner's (or their teacher's); classmates see it.
            let profile = ProfileRecord(name: "Mia", avatarPNG: Data([0x89, 0x50, 0x4E, 0x47, 1, 2]), at: 4)
            #expect(try await api.push([Changes.record("profile", mia.id, profile)], token: ben.token).rejected.count == 1)
            #expect(try await api.push([Changes.record("profile", mia.id, profile)], token: mia.token).rejected.isEmpty)
            #expect(try await api.pullAll(token: ben.token).contains { $0["entity"] as? String == "profile" })
            #expect(!(try await api.pullAll(token: eve.token).contains { $0["entity"] as? String == "profile" }))

            // A pool the teacher made reaches the class once assigned to it.
            let poolID = UUID().uuidString.lowercased()
            let pool = WordPool(id: poolID, name: "Tiere", language: "de", items: [WordItem(word: "HUND", hint: "")])
            #expect(try await api.push([Changes.record("pool", poolID, PoolChange(change: .save, pool: pool, at: 5))],
                                       token: berg).rejected.isEmpty)
            #expect(!(try await api.pullAll(token: ben.token).contains { $0["entity"] as? String == "pool" }))
            // Ben's device has pulled up to here; the list was saved before.
            let benCursor = try #require(try await api.call(.get, "/sync/changes?limit=1000", token: ben.token)
                .object["cursor"] as? NSNumber).int64Value
            let assign = Changes.record("poolAssignment", poolID, PoolAssignment(classId: twoB.id, assigned: true, at: 6))
            #expect(try await api.push([assign], token: kurz).rejected.count == 1)
            #expect(try await api.push([assign], token: berg).rejected.isEmpty)
            let benNext = try await api.call(.get, "/sync/changes?after=\(benCursor)", token: ben.token)
            let benPools = (benNext.object["changes"] as? [[String: Any]] ?? []).filter { $0["entity"] as? String == "pool" }
            #expect(benPools.count == 1)
            #expect(benPools.first?["entityId"] as? String == poolID)
            #expect(!(try await api.pullAll(token: eve.token).contains { $0["entity"] as? String == "pool" }))
            // Ben's own pool is his; Mia may not overwrite it, their teacher may.
            let bensID = UUID().uuidString.lowercased()
            let bens = WordPool(id: bensID, name: "Meine", language: "de", items: [WordItem(word: "BALL", hint: "")])
            #expect(try await api.push([Changes.record("pool", bensID, PoolChange(change: .save, pool: bens, at: 7))],
                                       token: ben.token).rejected.isEmpty)
            #expect(try await api.push([Changes.record("pool", bensID, PoolChange(change: .delete, at: 8))],
                                       token: mia.token).rejected.count == 1)
            #expect(try await api.push([Changes.record("pool", bensID, PoolChange(change: .delete, at: 8))],
                                       token: berg).rejected.isEmpty)
        }
    }
}

/// Width and height from a PNG's header.
func pngSize(_ png: [UInt8]) -> [Int] {
    guard png.count > 24 else { return [] }
    func be(_ at: Int) -> Int { png[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
    return [be(16), be(20)]
}
