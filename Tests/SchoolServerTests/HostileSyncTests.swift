import Foundation
import HTTPTypes
import LearnModel
import Logging
import NIOCore
import NIOPosix
import TeamsketchTestSupport
import Testing
@testable import LearnNet
@testable import SchoolServer

/// A pupil of another class, a classmate and another teacher try, as real
/// HTTP clients with real tokens, to take or spoil what Mia and her teacher
/// push. Each attempt is refused or harmless, and nothing of Mia's is lost.
@Suite struct HostileSyncTests {
    /// Mia and Ben in Frau Berg's 2b; Eve in Herr Kurz's 3a.
    struct School {
        var berg: String
        var kurz: String
        var twoB: TestClass
        var threeA: TestClass
        var mia: (id: String, token: String) { twoB.pupils["Mia"]! }
        var ben: (id: String, token: String) { twoB.pupils["Ben"]! }
        var eve: (id: String, token: String) { threeA.pupils["Eve"]! }
    }

    func school(_ api: TestAPI) async throws -> School {
        let (_, berg) = try await api.teacher("Frau Berg")
        let (_, kurz) = try await api.teacher("Herr Kurz")
        return School(berg: berg, kurz: kurz,
                      twoB: try await api.schoolClass("2b", teacher: berg, pupils: ["Mia", "Ben"]),
                      threeA: try await api.schoolClass("3a", teacher: kurz, pupils: ["Eve"]))
    }

    /// Names and strokes that look like SQL, quoting or dollar quotes are
    /// kept as written, and the log is whole afterwards.
    @Test(arguments: Backend.allCases)
    func textThatLooksLikeSQLIsStoredAsWritten(_ backend: Backend) async throws {
        try await TestServer(backend).run { api in
            let s = try await school(api)
            let names = ["Zoo'; DELETE FROM change; --", #"back\slash \' E'x' ?? $1"#, "$ts$ $$ END $ts1$ 'ü' \"\"",
                         "?", "Zeile\nzwei\t😀"]
            var sketches: [UUID: String] = [:]
            for name in names {
                let sketch = UUID()
                sketches[sketch] = name
                let answer = try await api.push([Changes.create(sketch, name: name), Changes.stroke(sketch, author: name)],
                                                token: s.mia.token)
                #expect(answer.rejected.isEmpty, "\(answer.rejected)")
            }
            // A second stroke, sent twice in one push and once more, counts once.
            let target = try #require(sketches.keys.first)
            let again = Changes.stroke(target, author: "Mia")
            _ = try await api.push([again, again], token: s.mia.token)
            _ = try await api.push([again], token: s.mia.token)
            let listed = try await api.call(.get, "/sketches", token: s.mia.token).array
            #expect(Set(listed.compactMap { $0["name"] as? String }) == Set(names))
            for entry in listed {
                #expect(entry["opCount"] as? Int == (entry["id"] as? String == target.key ? 2 : 1), "\(entry)")
            }
            let pulled = try await api.pullAll(token: s.berg)
            #expect(pulled.filter { $0["entity"] as? String == "sketchOp" }.count == names.count + 1)
            for (sketch, name) in sketches {
                let authors = pulled.filter { $0["entity"] as? String == "sketchOp" && $0["entityId"] as? String == sketch.key }
                    .compactMap { ($0["payload"] as? String).flatMap { SketchOpPayload.decode(Data($0.utf8)) } }
                    .compactMap { op -> String? in if case .addStroke(let stroke) = op { stroke.author } else { nil } }
                #expect(authors.contains(name), "\(authors)")
            }
        }
    }

    @Test(arguments: Backend.allCases)
    func anIdWorkedOutFromASketchCannotCarryAnotherChange(_ backend: Backend) async throws {
        try await TestServer(backend).run { api in
            let s = try await school(api)
            // Say Eve learned the sketch's id (it is told only to those the
            // host let in, but ids leak).
            let sketch = UUID()
            let create = Changes.create(sketch, name: "Zoo"), stroke = Changes.stroke(sketch)
            let createID = try #require(create["opId"] as? String), strokeID = try #require(stroke["opId"] as? String)

            // Eve files a profile change under the id of Mia's creation to come…
            let profile = Changes.record("profile", s.eve.id, ProfileRecord(name: "Eve", at: 1),
                                         opId: try #require(UUID(uuidString: createID)))
            let squat = try await api.push([profile], token: s.eve.token)
            #expect(squat.rejected[createID] == "conflict")
            // …and a stroke of her own sketch under the id of Mia's stroke.
            let elsewhere = UUID()
            var copied = Changes.stroke(elsewhere, author: "Eve"); copied["opId"] = strokeID
            let evesOwn = try await api.push([Changes.create(elsewhere), copied], token: s.eve.token)
            #expect(evesOwn.rejected[strokeID] == "conflict")

            // Mia's creation and stroke are hers, whole.
            let mias = try await api.push([create, stroke], token: s.mia.token)
            #expect(Set(mias.accepted) == [createID, strokeID] && mias.rejected.isEmpty, "\(mias.rejected)")
            let pulled = try await api.pullAll(token: s.berg)
            let creation = pulled.first { $0["opId"] as? String == createID }
            #expect(creation?["entity"] as? String == "sketch")
            #expect(creation?["authorId"] as? String == s.mia.id)
            let listed = try await api.call(.get, "/sketches", token: s.berg).array
            #expect(listed.map { $0["name"] as? String } == ["Zoo"])
            #expect(listed.first?["opCount"] as? Int == 1)
        }
    }

    @Test(arguments: Backend.allCases)
    func aClassmateWhoHoldsASketchsIdCannotDrawInRenameOrEraseIt(_ backend: Backend) async throws {
        try await TestServer(backend).run { api in
            let s = try await school(api)
            func refusals(_ changes: [[String: Any]], _ token: String) async throws -> [String?] {
                let answer = try await api.push(changes, token: token)
                return changes.map { answer.rejected[$0["opId"] as! String] }
            }
            // Mia's sketch, drawn alone. Ben holds its id (read over her
            // shoulder, say): a dot, naming himself a member, a rename and a
            // deletion are each refused.
            let solo = UUID()
            #expect(try await refusals([Changes.create(solo), Changes.stroke(solo)], s.mia.token) == [nil, nil])
            let bensTries = [Changes.stroke(solo, author: "Ben", x: 700), Changes.member(s.ben.id, of: solo),
                             Changes.sketchChange(solo, .rename("Bens", at: 2)), Changes.sketchChange(solo, .delete(at: 3))]
            #expect(try await refusals(bensTries, s.ben.token) == Array(repeating: "forbidden", count: 4))
            #expect(try await api.call(.get, "/sketches/\(solo)/image", token: s.ben.token).status == .notFound)
            #expect(try await api.pullAll(token: s.ben.token).filter { $0["entityId"] as? String == solo.key }.isEmpty)
            // Mia draws on, and her sketch is hers alone, whole.
            #expect(try await refusals([Changes.stroke(solo, x: 300)], s.mia.token) == [nil])
            let miasList = try await api.call(.get, "/sketches", token: s.mia.token).array
            #expect(miasList.first?["name"] as? String == "Zoo" && miasList.first?["opCount"] as? Int == 2)
            #expect(miasList.first?["authors"] as? [String] == [s.mia.id])

            // A sketch Mia hosted and let Ben into: both laptops push it;
            // Ben draws in it, but only Mia or Frau Berg renames or deletes
            // it. Herr Kurz and Eve can do neither, and Eve cannot join.
            let (team, create) = Changes.hosted(by: s.mia.id)
            let naming = Changes.member(s.ben.id, of: team)
            #expect(try await refusals([create, naming, Changes.stroke(team)], s.mia.token) == [nil, nil, nil])
            #expect(try await refusals([create, naming, Changes.stroke(team, author: "Ben", x: 500)], s.ben.token)
                    == [nil, nil, nil])
            #expect(try await refusals([Changes.sketchChange(team, .rename("Bens Zoo", at: 4)),
                                        Changes.sketchChange(team, .delete(at: 5))], s.ben.token) == ["forbidden", "forbidden"])
            #expect(try await refusals([Changes.sketchChange(team, .delete(at: 6))], s.kurz) == ["forbidden"])
            #expect(try await refusals([Changes.member(s.eve.id, of: team), Changes.stroke(team, author: "Eve")],
                                       s.eve.token) == ["forbidden", "forbidden"])
            // Nor can Ben name Eve, nor Eve start a team sketch under Mia's name.
            #expect(try await refusals([Changes.member(s.eve.id, of: team)], s.ben.token) == ["forbidden"])
            // Refused, the creation lets nothing of the batch in after it.
            let (posing, posingCreate) = Changes.hosted(by: s.mia.id)
            #expect(try await refusals([posingCreate, Changes.member(s.eve.id, of: posing),
                                        Changes.stroke(posing, author: "Eve")], s.eve.token)
                    == ["forbidden", "conflict", "conflict"])
            #expect(try await api.database.query("SELECT seq FROM change WHERE entityId = ?", [.text(posing.key)]).isEmpty)
            // Nor does anything of a sketch come first but its creation.
            #expect(try await refusals([Changes.stroke(UUID(), author: "Eve")], s.eve.token) == ["conflict"])
            #expect(try await refusals([Changes.sketchChange(team, .rename("Zoo der 2b", at: 7))], s.berg) == [nil])
            let listed = try await api.call(.get, "/sketches", token: s.ben.token).array
            #expect(listed.map { $0["name"] as? String } == ["Zoo der 2b"])
            #expect(Set(listed.first?["authors"] as? [String] ?? []) == [s.mia.id, s.ben.id])
            #expect(listed.first?["opCount"] as? Int == 2)
            #expect(try await api.call(.get, "/sketches", token: s.eve.token).array.isEmpty)
        }
    }

    /// Mia hosts a session and lets Ben and Ole in: their laptops hold the
    /// sketch's id, her creation and its nonce, and may push first. A
    /// creation naming Ben, Ole, nobody, or Mia without the nonce does not
    /// start the sketch; the creation as Mia's laptop gave it goes in from
    /// any of them, filed under her. Mia's own laptop needs nothing more.
    @Test(arguments: Backend.allCases)
    func aMemberWhoPushesFirstNamesOnlyTheHostAsTheSketchsCreator(_ backend: Backend) async throws {
        try await TestServer(backend).run { api in
            let s = try await school(api)
            let team2c = try await api.schoolClass("2c", teacher: s.berg, pupils: ["Mia", "Ben", "Ole"])
            let (mia, ben, ole) = (team2c.pupils["Mia"]!, team2c.pupils["Ben"]!, team2c.pupils["Ole"]!)
            let hosted = SessionSketch.hosted(creator: try #require(UUID(uuidString: mia.id)))
            let nonce = try #require(hosted.nonce)
            let team = hosted.id
            for forged in [Changes.teamCreate(team, creator: ben.id, nonce: nonce),
                           Changes.teamCreate(team, creator: ole.id, nonce: nonce),
                           Changes.teamCreate(team, creator: mia.id),
                           Changes.teamCreate(team, creator: mia.id, nonce: UUID()),
                           Changes.create(team, name: "Bens")] {
                let refused = try await api.push([forged], token: ben.token).rejected
                #expect(refused.values.first == "forbidden", "\(forged)")
            }
            // Nor can he start a sketch of his own under Mia's name (an id
            // not made for her), name himself a member and draw in it.
            let posing = UUID()
            #expect(try await api.push([Changes.teamCreate(posing, creator: mia.id), Changes.member(ben.id, of: posing),
                                        Changes.stroke(posing, author: "Ben")], token: ben.token).rejected.count == 3)
            // The creation Mia's laptop gave his, pushed by him, files the
            // sketch under her; then his membership and his strokes.
            let create = Changes.teamCreate(team, creator: mia.id, nonce: nonce)
            let fromBen = try await api.push([create, Changes.member(ben.id, of: team), Changes.stroke(team, author: "Ben")],
                                             token: ben.token)
            #expect(fromBen.rejected.isEmpty, "\(fromBen.rejected)")
            #expect(try await api.push([create], token: mia.token).rejected.isEmpty)
            #expect(try await api.push([Changes.sketchChange(team, .rename("Bens Zoo", at: 4))], token: ben.token)
                .rejected.values.first == "forbidden")
            #expect(try await api.push([Changes.sketchChange(team, .rename("Oles Zoo", at: 4))], token: ole.token)
                .rejected.values.first == "forbidden")
            #expect(try await api.push([Changes.sketchChange(team, .rename("Mias Zoo", at: 5))], token: mia.token)
                .rejected.isEmpty)

            // A sketch Mia hosts and pushes first: her creation is taken as
            // it is; another nonce of hers names no sketch of this id.
            let next = SessionSketch.hosted(creator: try #require(UUID(uuidString: mia.id)))
            #expect(next.id != team && next.nonce != hosted.nonce)
            #expect(try await api.push([Changes.teamCreate(next.id, creator: mia.id, nonce: nonce)], token: mia.token)
                .rejected.values.first == "forbidden")
            #expect(try await api.push([Changes.teamCreate(next.id, creator: mia.id, nonce: next.nonce), Changes.stroke(next.id)],
                                       token: mia.token).rejected.isEmpty)
            let listed = try await api.call(.get, "/sketches", token: s.berg).array
            let mine = listed.filter { ($0["id"] as? String) == team.uuidString.lowercased() || ($0["id"] as? String) == next.id.uuidString.lowercased() }
            #expect(Set(mine.compactMap { $0["name"] as? String }) == ["Mias Zoo", "Zoo"])
        }
    }

    /// Mia's sketch deleted (by her, or by her teacher) keeps every stroke:
    /// Frau Berg brings it back within 30 days, Mia herself too; Ben, Eve
    /// and Herr Kurz cannot; after 30 days the deletion stands.
    @Test(arguments: Backend.allCases)
    func aDeletionIsTakenBackByItsOwnerOrTheirTeacherWithinThirtyDays(_ backend: Backend) async throws {
        try await TestServer(backend).run { api in
            let s = try await school(api)
            func refused(_ change: [String: Any], _ token: String) async throws -> String? {
                try await api.push([change], token: token).rejected[change["opId"] as! String]
            }
            let sketch = UUID()
            _ = try await api.push([Changes.create(sketch), Changes.stroke(sketch), Changes.stroke(sketch, x: 300)],
                                   token: s.mia.token)
            #expect(try await refused(Changes.sketchChange(sketch, .restore(at: 1)), s.berg) == "conflict")  // not deleted
            #expect(try await refused(Changes.sketchChange(sketch, .delete(at: 2)), s.mia.token) == nil)
            #expect(try await api.call(.get, "/sketches", token: s.berg).array.isEmpty)
            #expect(try await refused(Changes.stroke(sketch, x: 500), s.mia.token) == "conflict")
            for token in [s.ben.token, s.eve.token, s.kurz] {
                #expect(try await refused(Changes.sketchChange(sketch, .restore(at: 3)), token) == "forbidden")
            }
            // Mia takes her own slip back at once, and deletes it again.
            #expect(try await refused(Changes.sketchChange(sketch, .restore(at: 3)), s.mia.token) == nil)
            #expect(try await api.call(.get, "/sketches", token: s.mia.token).array.count == 1)
            #expect(try await refused(Changes.sketchChange(sketch, .delete(at: 3)), s.mia.token) == nil)
            // 29 days on (signed in anew: tokens do not last that long).
            api.clock.advance(seconds: 29 * 86_400)
            let berg = try await api.teacher("Frau Berg").token
            #expect(try await refused(Changes.sketchChange(sketch, .restore(at: 4)), berg) == nil)
            let listed = try await api.call(.get, "/sketches", token: berg).array
            #expect(listed.first?["opCount"] as? Int == 2)
            #expect(try await refused(Changes.stroke(sketch, x: 700), berg) == nil)
            // Deleted again, and 31 days later nobody brings it back.
            #expect(try await refused(Changes.sketchChange(sketch, .delete(at: 5)), berg) == nil)
            api.clock.advance(seconds: 31 * 86_400)
            let later = try await api.teacher("Frau Berg").token
            #expect(try await refused(Changes.sketchChange(sketch, .restore(at: 6)), later) == "conflict")
            #expect(try await api.call(.get, "/sketches", token: later).array.isEmpty)
        }
    }

    /// Frau Berg hosts a session for her class on the projector's laptop;
    /// Mia's laptop reaches the server first. The sketch is Frau Berg's,
    /// Mia draws in it, Eve of another class cannot join, and naming
    /// members stops at the cap.
    @Test(arguments: Backend.allCases)
    func aSketchATeacherHostedIsTheirsAndTheirPupilsDrawInIt(_ backend: Backend) async throws {
        try await TestServer(backend).run { api in
            let (bergID, _) = try await api.teacher("Frau Berg", password: "correct horse")
            let berg = try await api.teacher("Frau Berg").token
            let s = try await school(api)
            let (sketch, create) = Changes.hosted(by: bergID)
            let fromMia = try await api.push([create, Changes.member(s.mia.id, of: sketch), Changes.stroke(sketch)],
                                             token: s.mia.token)
            #expect(fromMia.rejected.isEmpty, "\(fromMia.rejected)")
            #expect(try await api.push([create, Changes.member(bergID, of: sketch)], token: berg).rejected.isEmpty)
            let eves = try await api.push([Changes.member(s.eve.id, of: sketch)], token: s.eve.token)
            #expect(eves.rejected.values.first == "forbidden")
            // A pupil cannot start a sketch alone under the teacher's name.
            let alone = UUID()
            let posing = Changes.create(alone, origin: .alone(creator: UUID(uuidString: bergID)))
            #expect(try await api.push([posing], token: s.mia.token).rejected.values.first == "forbidden")
            let listed = try await api.call(.get, "/sketches", token: berg).array
            #expect(Set(listed.first?["authors"] as? [String] ?? []) == [bergID, s.mia.id])
            // Frau Berg renames it; Mia, a member, may not.
            let renamed = Changes.sketchChange(sketch, .rename("Klasse 2b", at: 3))
            #expect(try await api.push([renamed], token: berg).rejected.isEmpty)
            #expect(try await api.push([Changes.sketchChange(sketch, .rename("Mias", at: 4))], token: s.mia.token)
                .rejected.values.first == "forbidden")
            // The class is big enough to reach the cap on members.
            let more = try await api.schoolClass("2c", teacher: berg,
                                                 pupils: (1...ChangeRules.maxMembers).map { "Kind \($0)" }).pupils
            let team = UUID()
            let kinder = more.values.map(\.id).sorted()
            let named = try await api.push([Changes.teamCreate(team, creator: bergID)]
                                           + kinder.map { Changes.member($0, of: team) }, token: berg)
            #expect(named.rejected.count == 1 && named.rejected.values.first == "conflict", "\(named.rejected)")
        }
    }

    @Test(arguments: Backend.allCases)
    func anOpIdStoredOnceNeverNamesOtherContent(_ backend: Backend) async throws {
        try await TestServer(backend).run { api in
            let s = try await school(api)
            let opID = UUID()
            let mine = Changes.record("profile", s.mia.id, ProfileRecord(name: "Mia", at: 1), opId: opID)
            #expect(try await api.push([mine], token: s.mia.token).accepted == [opID.key])
            // Sent again (the answer was lost): stored before, harmless.
            #expect(try await api.push([mine], token: s.mia.token).accepted == [opID.key])
            // The same id with other content is a conflict, whoever sends it.
            let renamed = Changes.record("profile", s.mia.id, ProfileRecord(name: "Mimi", at: 2), opId: opID)
            #expect(try await api.push([renamed], token: s.mia.token).rejected[opID.key] == "conflict")
            let bens = Changes.record("profile", s.ben.id, ProfileRecord(name: "Ben", at: 2), opId: opID)
            #expect(try await api.push([bens], token: s.ben.token).rejected[opID.key] == "conflict")
            // Within one push as well: the first is stored, its twin refused.
            let twinID = UUID()
            let first = Changes.record("profile", s.ben.id, ProfileRecord(name: "Ben", at: 3), opId: twinID)
            let twin = Changes.record("profile", s.ben.id, ProfileRecord(name: "Benno", at: 3), opId: twinID)
            let both = try await api.push([first, twin], token: s.ben.token)
            #expect(both.accepted == [twinID.key] && both.rejected[twinID.key] == "conflict")

            let profiles = try await api.pullAll(token: s.berg).filter { $0["entity"] as? String == "profile" }
            #expect(profiles.compactMap { $0["payload"] as? String }.map { $0.contains("\"Mia\"") || $0.contains("\"Ben\"") }
                == [true, true])
            #expect(profiles.ids() == [opID.key, twinID.key])
        }
    }

    @Test(arguments: Backend.allCases)
    func anotherTeacherCannotBlockAGradeByItsId(_ backend: Backend) async throws {
        try await TestServer(backend).run { api in
            let s = try await school(api)
            let mia = try #require(UUID(uuidString: s.mia.id)), eve = try #require(UUID(uuidString: s.eve.id))
            let miasResults = GradeIdentity.wordPostResults(of: mia)
            let miasGradeID = GradeIdentity.pupil(.wordPostGame, miasResults, pupil: mia)

            // Herr Kurz grades his own pupil under the id of Mia's game grade…
            let evesGrade = GradeRecord(target: .wordPostGame, targetId: GradedWorkID(GradeIdentity.wordPostResults(of: eve)),
                                        pupilId: AccountID(eve), pupilName: "Eve", grade: 4, comment: "", at: 1)
            let squat = Changes.record("grade", miasGradeID.key, evesGrade)
            let answer = try await api.push([squat], token: s.kurz)
            #expect(answer.rejected.values.first == "conflict")
            // …or Eve on Mia's results, under the id that pair would have.
            var onMias = evesGrade; onMias.targetId = GradedWorkID(miasResults)
            let crossed = Changes.record("grade", GradeIdentity.pupil(.wordPostGame, miasResults, pupil: eve).key, onMias)
            #expect(try await api.push([crossed], token: s.kurz).rejected.values.first == "conflict")
            // His own pupil under her own id is his to grade.
            #expect(try await api.push([Changes.grade(evesGrade)], token: s.kurz).rejected.isEmpty)

            // Frau Berg's grade of Mia is stored, and Mia gets it.
            let miasGrade = GradeRecord(target: .wordPostGame, targetId: GradedWorkID(miasResults), pupilId: AccountID(mia),
                                        pupilName: "Mia", grade: 1, comment: "Super!", at: 2)
            let given = try await api.push([Changes.grade(miasGrade)], token: s.berg)
            #expect(given.accepted.count == 1 && given.rejected.isEmpty, "\(given.rejected)")
            let grades = try await api.pullAll(token: s.mia.token).filter { $0["entity"] as? String == "grade" }
            #expect(grades.map { $0["entityId"] as? String } == [miasGradeID.key])
            #expect(grades.first?["authorId"] as? String != nil)
        }
    }

    @Test(arguments: Backend.allCases)
    func aLateCopyOfAnOldRenameDoesNotUndoANewerOne(_ backend: Backend) async throws {
        try await TestServer(backend).run { api in
            let s = try await school(api)
            let sketch = UUID()
            _ = try await api.push([Changes.create(sketch, name: "Zoo")], token: s.mia.token)
            let old = Changes.sketchChange(sketch, .rename("Alt", at: 2))
            let newer = Changes.sketchChange(sketch, .rename("Neu", at: 3))
            #expect(try await api.push([old], token: s.mia.token).rejected.isEmpty)
            // A retry of the old rename, decided while its first push was
            // still being written, reaches the database after a newer one.
            let stale = try SyncChange(opId: #require(UUID(uuidString: old["opId"] as! String)), entity: .sketch,
                                       entityId: sketch.key, payload: old["payload"] as! String, createdAt: 1)
            #expect(try await api.push([newer], token: s.mia.token).rejected.isEmpty)
            let account = Account(id: try #require(UUID(uuidString: s.mia.id)), role: .pupil, name: "Mia",
                                  classID: UUID(uuidString: s.twoB.id))
            let decided = ChangeDecision.store(ChangeAudience(sketchID: sketch.key),
                                               .sketch(id: sketch.key, change: .rename("Alt", at: 2), started: nil))
            try await SyncStore(db: api.database).store([(stale, decided)], pusher: account, now: api.clock.now)

            #expect(try await api.call(.get, "/sketches", token: s.mia.token).array.first?["name"] as? String == "Neu")
            let renames = try await api.pullAll(token: s.mia.token).filter { $0["entity"] as? String == "sketch" }
            #expect(renames.count == 3)
        }
    }

    /// One round of a team game as the laptop that hosted it pushes it.
    func result(_ name: String, player: String?, word: String) -> [String: Any] {
        let stat = WordPostRoundStat(id: UUID(), gameID: UUID(), round: 1, playerName: name, word: word, finished: true,
                                     milliseconds: 20_000, lettersSent: 1, lettersReceived: 1, wrongPlacements: 0,
                                     playedAt: Date(timeIntervalSince1970: 1_789_000_000),
                                     playerID: player.flatMap(UUID.init(uuidString:)))
        return Changes.record("wordPostRoundStat", stat.id.key, stat)
    }

    @Test(arguments: Backend.allCases)
    func eachRoundOfATeamGameIsThePlayersOwn(_ backend: Backend) async throws {
        try await TestServer(backend).run { api in
            let s = try await school(api)
            // Mia's laptop hosted the game: her round and Ben's.
            let hers = result("Mia", player: s.mia.id, word: "Haus"), bens = result("Ben", player: s.ben.id, word: "Boot")
            let pushed = try await api.push([hers, bens], token: s.mia.token)
            #expect(pushed.accepted.count == 2 && pushed.rejected.isEmpty, "\(pushed.rejected)")
            // Nobody outside the class files a round under Mia: not Eve, not
            // another class's teacher.
            let evesFake = result("Mia", player: s.mia.id, word: "Falsch"), kurzFake = result("Mia", player: s.mia.id, word: "Nein")
            #expect(try await api.push([evesFake], token: s.eve.token).rejected[evesFake["opId"] as! String] == "forbidden")
            #expect(try await api.push([kurzFake], token: s.kurz).rejected[kurzFake["opId"] as! String] == "forbidden")
            // A result under an account that does not exist is nobody's.
            let ghost = result("Geist", player: UUID().uuidString, word: "Nix")
            #expect(try await api.push([ghost], token: s.mia.token).rejected[ghost["opId"] as! String] == "forbidden")

            // Ben's laptop receives his round; the class's games.csv lists it under Ben.
            let bensPull = try await api.pullAll(token: s.ben.token).filter { $0["entity"] as? String == "wordPostRoundStat" }
            #expect(bensPull.ids() == [bens["opId"] as! String])
            let browser = WebGalleryTests.Browser(api.client, language: "de")
            let form = try await browser.get("/gallery/signin")
            _ = try await browser.post("/gallery/signin", [("form", form.formToken ?? ""), ("name", "Frau Berg"),
                                                          ("password", "correct horse")])
            let games = try await browser.get("/gallery/classes/\(s.twoB.id)/games.csv").text
            let lines = games.components(separatedBy: "\r\n").filter { !$0.isEmpty }
            #expect(lines.count == 3, "a header and two rounds: \(lines)")
            #expect(lines.contains { $0.hasPrefix("Ben;") && $0.contains(";Boot;") }, "\(lines)")
            #expect(lines.contains { $0.hasPrefix("Mia;") && $0.contains(";Haus;") }, "\(lines)")
            // Each pupil's page counts one round: their own.
            for pupil in [s.ben.id, s.mia.id] {
                let page = try await browser.get("/gallery/classes/\(s.twoB.id)/pupils/\(pupil)").text
                #expect(page.contains("<th scope=\"row\">Runden</th><td>1</td>"))
            }
        }
    }

    /// A server from before results named their player filed a team game's
    /// rounds under the host; starting the new server files each round under
    /// the classmate whose name it carries.
    @Test(arguments: Backend.allCases)
    func teamRoundsFiledUnderTheHostMoveToTheirPlayersOnUpgrade(_ backend: Backend) async throws {
        let location = try await backend.makeLocation()
        let db = try await location.open(logger: Logger(label: "test"), migrating: false)
        try await Migrations.apply(to: db, now: 1, through: 5)
        let classID = UUID().key, teacher = UUID().key, mia = UUID().key, ben = UUID().key
        try await db.execute("INSERT INTO account (id, role, name, nameKey, createdAt) VALUES (?, 'teacher', 'Frau Berg', 'frau berg', 1)",
                             [.text(teacher)])
        try await db.execute("INSERT INTO schoolClass (id, teacherId, name, createdAt) VALUES (?, ?, '2b', 1)",
                             [.text(classID), .text(teacher)])
        for (id, name) in [(mia, "Mia"), (ben, "Ben")] {
            try await db.execute("INSERT INTO account (id, role, name, nameKey, classId, createdAt) VALUES (?, 'pupil', ?, ?, ?, 1)",
                                 [.text(id), .text(name), .text(name.lowercased()), .text(classID)])
        }
        // Mia's laptop pushed her round, Ben's (his name typed in capitals)
        // and one of a player nobody in the class is called.
        var ops: [String: String] = [:]
        for (name, word) in [("Mia", "Haus"), ("BEN", "Boot"), ("Kim", "Kuh")] {
            let change = result(name, player: nil, word: word)
            let opID = change["opId"] as! String
            ops[name] = opID
            try await db.execute("""
                INSERT INTO change (opId, entity, entityId, payload, createdAt, authorId, receivedAt, subjectId)
                VALUES (?, 'wordPostRoundStat', ?, ?, 1, ?, 1, ?)
                """, [.text(opID), .text(change["entityId"] as! String), .text(change["payload"] as! String),
                      .text(mia), .text(mia)])
        }
        try await Migrations.apply(to: db, now: 2)
        var subjects: [String: String] = [:]
        for (name, opID) in ops {
            subjects[name] = try await db.query("SELECT subjectId FROM change WHERE opId = ?", [.text(opID)]).first?["subjectId"].text
        }
        #expect(subjects == ["Mia": mia, "BEN": ben, "Kim": mia])
        await db.close()
    }

    /// Item 8: a class's reports read the server's current state by class,
    /// all of it. 20,500 game rounds (about 80 school days of a class)
    /// crowd no grade out of grades.csv, and games.csv and the pupil's
    /// page count every round.
    @Test(arguments: Backend.allCases)
    func aYearOfGameRoundsCrowdsNoGradeOutOfTheReports(_ backend: Backend) async throws {
        // 80 school days pushed in one: more than a day's quota of changes.
        var server = TestServer(backend)
        server.configuration.quota.changesPerDay = 50_000
        try await server.run { api in
            let s = try await school(api)
            let rounds = 20_500
            for start in stride(from: 0, to: rounds, by: SchoolAPI.maxChangesPerPush) {
                let batch = (start..<min(start + SchoolAPI.maxChangesPerPush, rounds)).map {
                    result("Mia", player: s.mia.id, word: "Wort\($0)")
                }
                let pushed = try await api.push(batch, token: s.mia.token)
                #expect(pushed.accepted.count == batch.count && pushed.rejected.isEmpty, "\(pushed.rejected.prefix(3))")
            }
            let mia = UUID(uuidString: s.mia.id)!
            let target = GradeIdentity.wordPostResults(of: mia)
            let grade = GradeRecord(target: .wordPostGame, targetId: GradedWorkID(target), pupilId: AccountID(mia), pupilName: "Mia",
                                    grade: 2, comment: "Fleißig", at: 1_790_000_000_000)
            #expect(try await api.push([Changes.grade(grade)], token: s.berg).rejected.isEmpty)

            let browser = WebGalleryTests.Browser(api.client, language: "de")
            let form = try await browser.get("/gallery/signin")
            _ = try await browser.post("/gallery/signin", [("form", form.formToken ?? ""), ("name", "Frau Berg"),
                                                          ("password", "correct horse")])
            let grades = try await browser.get("/gallery/classes/\(s.twoB.id)/grades.csv").text
            #expect(grades.contains("Mia;Buchstaben Post;nein;2;Fleißig;"), "\(grades)")
            let games = try await browser.get("/gallery/classes/\(s.twoB.id)/games.csv").text
            let lines = games.components(separatedBy: "\r\n").filter { $0.hasPrefix("Mia;") }
            #expect(lines.count == rounds)
            #expect(lines.first?.contains(";Wort0;") == true && lines.last?.contains(";Wort20499;") == true)
            let page = try await browser.get("/gallery/classes/\(s.twoB.id)/pupils/\(s.mia.id)").text
            #expect(page.contains("<th scope=\"row\">Runden</th><td>\(rounds)</td>"))
            // Another teacher's class report is not his to read.
            let other = WebGalleryTests.Browser(api.client, language: "de")
            let otherForm = try await other.get("/gallery/signin")
            _ = try await other.post("/gallery/signin", [("form", otherForm.formToken ?? ""), ("name", "Herr Kurz"),
                                                         ("password", "correct horse")])
            #expect(try await other.get("/gallery/classes/\(s.twoB.id)/games.csv").status == .forbidden)
        }
    }

    /// Item 5: the LAN id of a session is in every beacon. Eve, who heard
    /// one, holds the relay's host socket under it before Mia offers her
    /// session; Mia's offer is under an id of its own and is listed for her
    /// class. An id that is taken all the same is given up for a new one.
    @Test(arguments: Backend.allCases)
    func aStrangerHoldingASessionsIdsDoesNotKeepItFromTheRelay(_ backend: Backend) async throws {
        try await TestServer(backend).run { api in
            let s = try await school(api)
            let port = try #require(api.client.port)
            func listed(_ token: String) async throws -> [[String: Any]] {
                try await api.client.execute(uri: "/relay/v1/sessions", method: .get,
                                             headers: [.authorization: "Bearer \(token)"]) { response in
                    (try? JSONSerialization.jsonObject(with: Data(buffer: response.body))) as? [[String: Any]] ?? []
                }
            }
            func squat(_ id: UUID) async throws -> Channel {
                let channel = try await RelayDialer.dial(RelayEndpoint(host: "127.0.0.1", port: port, token: s.eve.token),
                                                         path: "/relay/v1/host/\(id.key)", timeout: .seconds(30),
                                                         loop: MultiThreadedEventLoopGroup.singleton.next(), bytes: false) { _ in }.get()
                try await eventually("Eve's squat is listed") { (try? await listed(s.eve.token))?.contains { $0["id"] as? String == id.key } == true }
                return channel
            }
            var config = SessionHost.Configuration(name: "Mia", params: SessionParams(name: "Zoo"))
            config.bindHost = "127.0.0.1"
            config.log = .silent
            let host = try await SessionHost.start(config)
            let endpoint = RelayEndpoint(host: "127.0.0.1", port: port, token: s.mia.token)

            let onLANID = try await squat(host.sessionID)
            // Eve even has the relay id Mia's laptop will try first.
            let first = UUID()
            await host.core.read { $0.relayID = first }
            let onRelayID = try await squat(first)
            try await host.relay(through: endpoint, sessionName: "Zoo", timeout: .seconds(30))
            let relayID = await host.relayID
            #expect(relayID != first && relayID != host.sessionID)
            let seen = try await listed(s.ben.token)
            #expect(seen.map { $0["id"] as? String } == [relayID.key])
            #expect(seen.first?["session"] as? String == host.sessionID.key)
            #expect(seen.first?["hostId"] as? String == s.mia.id)
            try await onLANID.close()
            try await onRelayID.close()
            await host.end()
        }
    }
}
