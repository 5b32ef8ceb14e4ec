import Foundation
import Hummingbird
import LearnModel
import LearnStore
import Logging
import SchoolClient
import TeamsketchCore
import TeamsketchTestSupport
import Testing
@testable import SchoolServer

/// Real desktop stores syncing through a real server over HTTP, with the
/// app's own sync service and client.
@Suite struct DesktopSyncTests {
    @Test(arguments: Backend.allCases)
    func aSketchMadeOnOneDeviceAppearsOnAnotherAndSoDoGradesAndDeletions(_ backend: Backend) async throws {
        try await TestServer(backend).run { api in
            let two = try await MiaAndHerTeacher(api)
            defer { Task { await two.client.shutdown() } }
            let (mia, miasLaptop, teachersLaptop, a, b) =
                (two.mia, two.miasLaptop, two.teachersLaptop, two.a, two.b)

            let meta = SketchMeta(name: "Zoo", createdAt: Date(timeIntervalSince1970: 1_790_000_000))
            try miasLaptop.createSketch(meta)
            for x in stride(from: 100.0, to: 600, by: 100) { try miasLaptop.append(.addStroke(Self.stroke(x: x)), to: meta.id) }
            let pushed = try await a.syncOnce()
            #expect(pushed.pushed == 6)
            #expect(try miasLaptop.outboxCount() == 0)
            _ = try await b.syncOnce()
            #expect(try teachersLaptop.loadSketch(meta.id) == miasLaptop.loadSketch(meta.id))

            // The teacher grades it on their laptop; Mia's laptop gets the grade.
            let gradeID = GradeIdentity.pupil(.sketch, meta.id, pupil: try #require(UUID(uuidString: mia.id)))
            try teachersLaptop.setGrade(id: gradeID, GradeRecord(target: .sketch, targetId: GradedWorkID(meta.id),
                                                                 pupilId: AccountID(mia.id), grade: 1, comment: "Super!", at: 1_790_000_100_000))
            let graded = try await b.syncOnce()
            #expect(graded.pushed == 1 && graded.refused == 0)
            _ = try await a.syncOnce()
            #expect(try miasLaptop.grades(forTarget: GradedWorkID(meta.id)).map(\.grade) == [1])

            // Mia deletes it; it leaves the teacher's laptop too.
            try miasLaptop.deleteSketch(meta.id)
            _ = try await a.syncOnce()
            _ = try await b.syncOnce()
            #expect(try teachersLaptop.sketches().isEmpty)
            #expect(try teachersLaptop.outboxCount() == 0)
            // A second round changes nothing.
            let again = try await a.syncOnce()
            #expect(again.pushed == 0 && again.pulled == 0)
        }
    }

    /// Mia's teacher removes her for good: her own sketch, its grade, her
    /// game round and her profile leave the teacher's laptop and Ben's at
    /// their next sync; the team sketch Ben hosted stays on both, with her
    /// line in it.
    @Test(arguments: Backend.allCases)
    func aRemovedPupilsWorkLeavesTheDevicesAndTheTeamKeepsItsSketch(_ backend: Backend) async throws {
        try await TestServer(backend).run { api in
            let (_, berg) = try await api.teacher("Frau Berg")
            let twoB = try await api.schoolClass("2b", teacher: berg, pupils: ["Mia", "Ben"])
            let mia = twoB.pupils["Mia"]!, ben = twoB.pupils["Ben"]!
            let client = try appClient(api)
            defer { Task { await client.shutdown() } }
            let miasLaptop = try LocalStore.inMemory(), teachersLaptop = try LocalStore.inMemory(), bensLaptop = try LocalStore.inMemory()
            let a = SyncService(store: miasLaptop, connection: client.connection(token: mia.token), key: "a")
            let b = SyncService(store: teachersLaptop, connection: client.connection(token: berg), key: "b")
            let c = SyncService(store: bensLaptop, connection: client.connection(token: ben.token), key: "c")

            let own = SketchMeta(name: "Mias Haus", createdAt: Date(timeIntervalSince1970: 1_790_000_000))
            try miasLaptop.createSketch(own)
            try miasLaptop.append(.addStroke(Self.stroke(x: 100)), to: own.id)
            try miasLaptop.setProfile(accountID: mia.id, ProfileRecord(name: "Mia", at: 1))
            let list = WordPool(id: UUID().uuidString.lowercased(), name: "Mias Wörter", language: "de",
                                items: [WordItem(word: "HAUS", hint: "")])
            try miasLaptop.savePool(list)
            #expect(try await a.syncOnce().refused == 0)
            #expect(try await api.push([Changes.round(player: mia.id, name: "Mia")], token: mia.token).rejected.isEmpty)
            let (team, create) = Changes.hosted(by: ben.id, name: "Zoo")
            let members = [Changes.member(mia.id, of: team), Changes.member(ben.id, of: team)]
            #expect(try await api.push([create] + members + [Changes.stroke(team, author: "Mia")], token: mia.token).rejected.isEmpty)
            #expect(try await api.push([create] + members + [Changes.stroke(team, author: "Ben", x: 500)], token: ben.token)
                .rejected.isEmpty)
            _ = try await b.syncOnce()
            let gradeID = GradeIdentity.pupil(.sketch, own.id, pupil: try #require(UUID(uuidString: mia.id)))
            try teachersLaptop.setGrade(id: gradeID, GradeRecord(target: .sketch, targetId: GradedWorkID(own.id),
                                                                 pupilId: AccountID(mia.id), grade: 1, comment: "Schön", at: 1_790_000_100_000))
            #expect(try await b.syncOnce().refused == 0)
            _ = try await c.syncOnce()
            #expect(Set(try teachersLaptop.sketches().map(\.name)) == ["Mias Haus", "Zoo"])
            #expect(try teachersLaptop.grades(forTarget: GradedWorkID(own.id)).count == 1)
            #expect(try teachersLaptop.stats(forPlayer: "Mia").rounds.count == 1)
            #expect(try teachersLaptop.profile(accountID: mia.id) != nil)
            #expect(try bensLaptop.profile(accountID: mia.id) != nil)
            #expect(try teachersLaptop.pool(id: list.id) != nil)

            #expect(try await api.call(.delete, "/pupils/\(mia.id)", token: berg).status == .noContent)
            _ = try await b.syncOnce()
            _ = try await c.syncOnce()
            for laptop in [teachersLaptop, bensLaptop] {
                #expect(try laptop.sketches().map(\.name) == ["Zoo"])
                #expect(try laptop.profile(accountID: mia.id) == nil)
                #expect(try laptop.loadSketch(team).ops.count == 2)
            }
            #expect(try teachersLaptop.grades(forTarget: GradedWorkID(own.id)).isEmpty)
            #expect(try teachersLaptop.stats(forPlayer: "Mia").rounds.isEmpty)
            #expect(try teachersLaptop.pool(id: list.id) == nil)
            #expect(try teachersLaptop.outboxCount() == 0)
        }
    }

    /// Mia's sketch is on her laptop and her tablet. She deletes it on the
    /// laptop while the tablet, offline, gets another stroke: the tablet
    /// keeps the drawing as "Zoo (copy)" — whether it first pushes (the
    /// server refuses the stroke: the sketch is deleted) or first hears of
    /// the deletion (a stroke drawn during the round) — and the copy
    /// reaches the laptop. Nothing drawn is lost.
    @Test(arguments: Backend.allCases)
    func aSketchDeletedElsewhereIsKeptAsACopyWhereItWasStillDrawnIn(_ backend: Backend) async throws {
        try await TestServer(backend).run { api in
            let (_, berg) = try await api.teacher("Frau Berg")
            let mia = try await api.schoolClass("2b", teacher: berg, pupils: ["Mia"]).pupils["Mia"]!
            let client = try appClient(api)
            defer { Task { await client.shutdown() } }
            let laptop = try LocalStore.inMemory(), tablet = try LocalStore.inMemory()
            let told = Locked<[LocalStore.KeptCopy]>([])
            let onLaptop = SyncService(store: laptop, connection: client.connection(token: mia.token), key: "l")
            let onTablet = SyncService(store: tablet, connection: client.connection(token: mia.token), key: "t",
                                       onKeptCopies: { kept in told.withLock { $0 += kept } })
            for (name, pushFirst) in [("Zoo", true), ("Haus", false)] {
                let meta = SketchMeta(name: name, createdAt: Date(timeIntervalSince1970: 1_790_000_000))
                try laptop.createSketch(meta)
                try laptop.append(.addStroke(Self.stroke(x: 100)), to: meta.id)
                _ = try await onLaptop.syncOnce()
                _ = try await onTablet.syncOnce()
                try laptop.deleteSketch(meta.id)
                _ = try await onLaptop.syncOnce()
                let late = Self.stroke(x: 300)
                let kept: [LocalStore.KeptCopy]
                if pushFirst {
                    try tablet.append(.addStroke(late), to: meta.id)
                    let round = try await onTablet.syncOnce()
                    #expect(round.keptAsCopies.map { [$0.original, $0.copy] } == [[name, "\(name) (copy)"]])
                    kept = round.keptAsCopies
                } else {
                    // The deletion comes in a pull while the stroke waits.
                    let page = try await client.connection(token: mia.token).pull(try tablet.syncCursor(for: "t"), 500, [])
                    try tablet.append(.addStroke(late), to: meta.id)
                    let report = try tablet.applyRemote(page.changes, cursor: page.cursor, for: "t")
                    #expect(report.keptAsCopies.map { [$0.original, $0.copy] } == [[name, "\(name) (copy)"]])
                    kept = report.keptAsCopies
                    _ = try await onTablet.syncOnce()
                }
                let copy = try #require(try tablet.sketches().first { $0.name == "\(name) (copy)" })
                #expect(kept.map(\.originalID) == [meta.id] && kept.map(\.copyID) == [copy.id])
                #expect(try tablet.loadSketch(copy.id).strokes.map(\.id).contains(late.id))
                #expect(try tablet.loadSketch(copy.id).strokes.count == 2)
                #expect(try !tablet.sketches().contains { $0.id == meta.id })
                _ = try await onTablet.syncOnce()
                #expect(try tablet.outboxCount() == 0)
                _ = try await onLaptop.syncOnce()
                #expect(try laptop.loadSketch(copy.id).strokes.count == 2)
                #expect(try !laptop.sketches().contains { $0.id == meta.id })
            }
            #expect(told.withLock { $0.map(\.original) } == ["Zoo"])
        }
    }

    @Test(arguments: Backend.allCases)
    func aPupilSignsInWithPicturesAndTheClassSettingsReachTheirLaptop(_ backend: Backend) async throws {
        try await TestServer(backend).run { api in
            let (_, berg) = try await api.teacher("Frau Berg")
            let twoB = try await api.schoolClass("2b", teacher: berg, pupils: ["Mia", "Ole"])
            let twoBID = SchoolClassID(twoB.id)
            let client = try SchoolServerClient(address: URL(string: "http://127.0.0.1:\(try #require(api.client.port))")!,
                                                deviceMark: DeviceMark.random())
            defer { Task { await client.shutdown() } }
            let directory = client.pupilDirectory(trustedCertificates: nil)

            // What the shared laptop shows: at first no class; once the
            // teacher typed the code, the class, then the class's pupils.
            #expect(try await directory.classes(nil).isEmpty)
            await #expect(throws: PupilDirectory.Failure.unknownClass) { try await directory.pupils(twoBID) }
            await #expect(throws: PupilDirectory.Failure.unknownCode) { try await directory.classes("AAAA-AAAA") }
            #expect(try await directory.classes(twoB.code).map(\.name) == ["2b"])
            let classes = try await directory.classes(nil)
            #expect(classes.map(\.name) == ["2b"])
            let pupils = try await directory.pupils(twoBID)
            #expect(pupils.map(\.name) == ["Mia", "Ole"])
            let mia = try #require(pupils.first { $0.name == "Mia" })
            await #expect(throws: PupilDirectory.Failure.wrongPictures) { try await directory.signIn(mia.id, [3, 2, 1]) }
            let signIn = try await directory.signIn(mia.id, [1, 2, 3])
            #expect(!signIn.isTeacher && signIn.name == "Mia" && signIn.classID == twoBID)

            // The teacher turns the eraser off for 2b on their laptop.
            let teachersLaptop = try LocalStore.inMemory(), miasLaptop = try LocalStore.inMemory()
            try teachersLaptop.setClassSettings(classID: twoB.id, ClassroomSettings(eraserAllowed: false).record(at: 1_790_000_000_000))
            _ = try await SyncService(store: teachersLaptop, connection: client.connection(token: berg), key: "t").syncOnce()
            _ = try await SyncService(store: miasLaptop, connection: client.connection(token: signIn.token.secret), key: "m").syncOnce()
            let record = try #require(try miasLaptop.classSettings(classID: twoB.id))

            // Mia's app obeys it.
            let settings = await MainActor.run {
                let preferences = DevicePreferences(client: .inMemory(), classroom: .inMemory(),
                                                    overrides: SettingsOverrides(), userName: nil)
                preferences.adoptClassSettings(record)
                return preferences.settings
            }
            #expect(!settings.eraserAllowed)
            #expect(!SketchPermissions.solo(settings).mayErase)
        }
    }

    /// Ben throws away, on his laptop, the team sketch Mia hosted (a store
    /// from before it knew who hosted it would let him): the server refuses,
    /// and it is back on his laptop with its lines, as it is for everyone.
    @Test(arguments: Backend.allCases)
    func aDeletionOfAClassmatesTeamSketchIsRefusedAndUndoneOnTheLaptop(_ backend: Backend) async throws {
        try await TestServer(backend).run { api in
            let (_, berg) = try await api.teacher("Frau Berg")
            let pupils = try await api.schoolClass("2b", teacher: berg, pupils: ["Mia", "Ben"]).pupils
            let client = try appClient(api)
            defer { Task { await client.shutdown() } }
            let mia = try #require(UUID(uuidString: pupils["Mia"]!.id)), ben = try #require(UUID(uuidString: pupils["Ben"]!.id))
            let hosted = SessionSketch.hosted(creator: mia)
            let meta = SketchMeta(id: hosted.id, name: "Zoo", createdAt: Date(timeIntervalSince1970: 1_790_000_000))
            let bens = try LocalStore.inMemory()
            try bens.createSketch(meta, origin: .team(creator: mia, nonce: hosted.nonce), members: [ben])
            try bens.append(.addStroke(Self.stroke(x: 10)), to: meta.id)
            let service = SyncService(store: bens, connection: client.connection(token: pupils["Ben"]!.token), key: "b")
            #expect(try await service.syncOnce().refused == 0)

            try bens.deleteSketch(meta.id)
            let round = try await service.syncOnce()
            #expect(round.refused == 1 && round.undone == 1)
            #expect(try bens.sketches().map(\.id) == [meta.id])
            #expect(try bens.loadSketch(meta.id).strokes.count == 1)
            let listed = try await api.call(.get, "/sketches", token: berg).array
            #expect(listed.compactMap { $0["name"] as? String } == ["Zoo"], "not deleted on the server")
        }
    }

    @Test(arguments: Backend.allCases)
    func aTeamSketchFromTwoDevicesIsStoredOnce(_ backend: Backend) async throws {
        try await TestServer(backend).run { api in
            let (_, berg) = try await api.teacher("Frau Berg")
            let pupils = try await api.schoolClass("2b", teacher: berg, pupils: ["Mia", "Ben"]).pupils
            let client = try SchoolServerClient(address: URL(string: "http://127.0.0.1:\(try #require(api.client.port))")!)
            defer { Task { await client.shutdown() } }
            // Both laptops were in the LAN session: same sketch, same ops,
            // stored in different batches.
            let mia = try #require(UUID(uuidString: pupils["Mia"]!.id)), ben = try #require(UUID(uuidString: pupils["Ben"]!.id))
            // Mia's laptop hosted: the sketch's id is made for her account
            // (`TeamSketchID`), and every copy's creation names her with
            // the nonce.
            let hosted = SessionSketch.hosted(creator: mia)
            var doc = SketchDocument(meta: SketchMeta(id: hosted.id, name: "Zoo", createdAt: Date(timeIntervalSince1970: 1_790_000_000)))
            for x in stride(from: 0.0, to: 1000, by: 50) { doc.apply(.addStroke(Self.stroke(x: x))) }
            // Her laptop names Ben, whom she let in, and Ben's names him
            // too. Ben's laptop reaches the server first.
            let mias = try LocalStore.inMemory(), bens = try LocalStore.inMemory()
            try mias.createSketch(doc.meta, origin: .team(creator: mia, nonce: hosted.nonce))
            try mias.addMembers([ben], to: doc.meta.id)
            try mias.append(contentsOf: doc.ops, to: doc.meta.id)
            try bens.createSketch(doc.meta, origin: .team(creator: mia, nonce: hosted.nonce), members: [ben])
            try bens.append(contentsOf: Array(doc.ops.prefix(7)), to: doc.meta.id)
            try bens.append(contentsOf: Array(doc.ops.dropFirst(7)), to: doc.meta.id)
            for (store, name) in [(bens, "Ben"), (mias, "Mia")] {
                let round = try await SyncService(store: store, connection: client.connection(token: pupils[name]!.token),
                                                  key: name).syncOnce()
                #expect(round.refused == 0)
            }
            let listed = try await api.call(.get, "/sketches", token: berg).array
            #expect(listed.count == 1)
            #expect(listed.first?["opCount"] as? Int == doc.ops.count)
            #expect(Set(listed.first?["authors"] as? [String] ?? []) == [pupils["Mia"]!.id, pupils["Ben"]!.id])

            // The next session's sketch: a copy of its creation without the
            // nonce (as an older laptop would push it) is refused; Mia's
            // laptop's, with it, is taken.
            let next = SessionSketch.hosted(creator: mia)
            #expect(next.id != hosted.id && next.nonce != hosted.nonce)
            let meta = SketchMeta(id: next.id, name: "Wald", createdAt: Date(timeIntervalSince1970: 1_790_000_100))
            let copy = try LocalStore.inMemory()
            try copy.createSketch(meta, origin: .team(creator: mia))
            let refused = try await SyncService(store: copy, connection: client.connection(token: pupils["Mia"]!.token),
                                                key: "copy").syncOnce()
            #expect(refused.refused == 1)
            try mias.createSketch(meta, origin: .team(creator: mia, nonce: next.nonce))
            try mias.append(.addStroke(Self.stroke(x: 10)), to: next.id)
            let round = try await SyncService(store: mias, connection: client.connection(token: pupils["Mia"]!.token),
                                              key: "Mia").syncOnce()
            #expect(round.refused == 0)
            #expect(try await api.call(.get, "/sketches", token: berg).array.count == 2)
        }
    }

    /// An address typed without a scheme is asked over HTTPS first: a
    /// server that speaks only HTTP gives no TLS answer at all (so the
    /// sign-in tries HTTP next), unlike one with an untrusted certificate
    /// (TLSTests).
    @Test func aPlainHTTPServerGivesNoAnswerOverHTTPS() async throws {
        try await TestServer(.sqlite).run { api in
            let port = try #require(api.client.port)
            let https = try SchoolServerClient(address: URL(string: "https://127.0.0.1:\(port)")!)
            let http = try SchoolServerClient(address: URL(string: "http://127.0.0.1:\(port)")!)
            #expect(await https.probe() == .noAnswer)
            #expect(await http.probe() == .answers)
            await https.shutdown()
            await http.shutdown()
        }
    }

    /// Mia deletes her sketch; Frau Berg's laptop lists it under "Deleted"
    /// and brings it back, strokes and all, to Mia's laptop too.
    @Test(arguments: Backend.allCases)
    func aSketchDeletedOnOneLaptopIsBroughtBackOnTheTeachers(_ backend: Backend) async throws {
        try await TestServer(backend).run { api in
            let two = try await MiaAndHerTeacher(api)
            defer { Task { await two.client.shutdown() } }
            let (client, miasLaptop, teachersLaptop, a, b) =
                (two.client, two.miasLaptop, two.teachersLaptop, two.a, two.b)
            let meta = SketchMeta(name: "Zoo", createdAt: Date(timeIntervalSince1970: 1_790_000_000))
            try miasLaptop.createSketch(meta)
            for x in stride(from: 100.0, to: 400, by: 100) { try miasLaptop.append(.addStroke(Self.stroke(x: x)), to: meta.id) }
            _ = try await a.syncOnce()
            _ = try await b.syncOnce()
            try miasLaptop.deleteSketch(meta.id)
            _ = try await a.syncOnce()
            _ = try await b.syncOnce()
            #expect(try teachersLaptop.sketches().isEmpty)
            #expect(try teachersLaptop.deletedSketches(now: Date()).map(\.name) == ["Zoo"])
            // Past the undo window it is no longer offered.
            #expect(try teachersLaptop.deletedSketches(now: Date().addingTimeInterval(31 * 86_400)).isEmpty)

            try teachersLaptop.restoreSketch(meta.id)
            #expect(try teachersLaptop.deletedSketches(now: Date()).isEmpty)
            #expect(try await b.syncOnce().refused == 0)
            _ = try await a.syncOnce()
            #expect(try miasLaptop.sketches().map(\.name) == ["Zoo"])
            #expect(try miasLaptop.loadSketch(meta.id).strokes.count == 3)
            // And she draws on in it.
            try miasLaptop.append(.addStroke(Self.stroke(x: 600)), to: meta.id)
            #expect(try await a.syncOnce().refused == 0)

            // Deleted again and restored on the teacher's laptop 31 days
            // later: the server refuses, and the laptop shows it deleted
            // again, as everywhere else.
            try miasLaptop.deleteSketch(meta.id)
            _ = try await a.syncOnce()
            _ = try await b.syncOnce()
            api.clock.advance(seconds: 31 * 86_400)
            let later = SyncService(store: teachersLaptop,
                                    connection: client.connection(token: try await api.teacher("Frau Berg").token), key: "b")
            try teachersLaptop.restoreSketch(meta.id)
            #expect(try teachersLaptop.sketches().map(\.name) == ["Zoo"])
            #expect(try await later.syncOnce().refused == 1)
            #expect(try teachersLaptop.sketches().isEmpty)
            #expect(try teachersLaptop.outboxCount() == 0)
        }
    }

    /// Ben joined Mia's session late, and his laptop at home had synced
    /// since Mia's laptop pushed the sketch: named a member only now, he
    /// still gets all of it there on the next pull, in its order, once.
    @Test(arguments: Backend.allCases)
    func aMemberNamedLaterGetsTheWholeSketchOnHisNextPull(_ backend: Backend) async throws {
        try await TestServer(backend).run { api in
            let (_, berg) = try await api.teacher("Frau Berg")
            let pupils = try await api.schoolClass("2b", teacher: berg, pupils: ["Mia", "Ben"]).pupils
            let mia = try #require(UUID(uuidString: pupils["Mia"]!.id)), ben = try #require(UUID(uuidString: pupils["Ben"]!.id))
            let client = try appClient(api)
            defer { Task { await client.shutdown() } }
            let miasLaptop = try LocalStore.inMemory(), bensAtHome = try LocalStore.inMemory()
            let mias = SyncService(store: miasLaptop, connection: client.connection(token: pupils["Mia"]!.token), key: "m")
            let bens = SyncService(store: bensAtHome, connection: client.connection(token: pupils["Ben"]!.token), key: "b")

            let meta = SketchMeta(name: "Zoo", createdAt: Date(timeIntervalSince1970: 1_790_000_000))
            try miasLaptop.createSketch(meta, origin: .team(creator: mia))
            for x in stride(from: 100.0, to: 500, by: 100) { try miasLaptop.append(.addStroke(Self.stroke(x: x)), to: meta.id) }
            let first = try #require(try miasLaptop.loadSketch(meta.id).strokes.first)
            try miasLaptop.append(.eraseStroke(id: first.id, by: "Mia", at: Date(timeIntervalSince1970: 1_790_000_050)),
                                  to: meta.id)
            try miasLaptop.rename(meta.id, to: "Zoo am Abend")
            #expect(try await mias.syncOnce().refused == 0)
            _ = try await bens.syncOnce()
            #expect(try bensAtHome.sketches().isEmpty)

            // Mia's laptop names Ben (he was let in late); Ben's laptop at
            // home gets the sketch whole, and a second pull brings nothing.
            try miasLaptop.addMembers([ben], to: meta.id)
            try miasLaptop.append(.addStroke(Self.stroke(x: 700)), to: meta.id)
            #expect(try await mias.syncOnce().refused == 0)
            let round = try await bens.syncOnce()
            #expect(round.refused == 0)
            let atHome = try bensAtHome.loadSketch(meta.id), onMias = try miasLaptop.loadSketch(meta.id)
            #expect(atHome.ops == onMias.ops)
            #expect(atHome.meta.name == "Zoo am Abend")
            #expect(atHome.strokes.count == 4)
            let again = try await bens.syncOnce()
            #expect(again.pulled == 0)
            // Only Ben pulls the copies: Mia and Frau Berg get nothing twice.
            let miasPull = try await api.pullAll(token: pupils["Mia"]!.token).compactMap { $0["opId"] as? String }
            #expect(Set(miasPull).count == miasPull.count)
            let bergsPull = try await api.pullAll(token: berg).compactMap { $0["opId"] as? String }
            #expect(Set(bergsPull).count == bergsPull.count)
        }
    }

    @Test func theServiceWaitsWhileTheServerIsAwayAndResumesByItself() async throws {
        let clock = TestClock()
        let location = try await Backend.sqlite.makeLocation()
        let port = try portOutsideTheEphemeralRange()
        let address = URL(string: "http://127.0.0.1:\(port)")!
        // Sign in while the server runs, then stop it.
        var server = try await startServer(location, port: port, clock: clock)
        let api = try SchoolServerClient(address: address)
        defer { Task { await api.shutdown() } }
        let token = try await api.signInTeacher(name: "Frau Berg", password: "correct horse").token
        await server.stop()

        let store = try LocalStore.inMemory()
        try store.createSketch(SketchMeta(name: "Offline", createdAt: Date(timeIntervalSince1970: 1_790_000_000)))
        let statuses = StatusLog()
        var tuning = SyncService.Tuning()
        tuning.interval = 0.05
        tuning.backoff = SyncBackoff(first: 0.05, longest: 0.2)
        let service = SyncService(store: store, connection: api.connection(token: token), key: "k", tuning: tuning,
                                  onStatus: { statuses.append($0) })
        await service.start()
        try await statuses.wait { if case .unreachable(_, let waiting) = $0 { waiting == 1 } else { false } }

        server = try await startServer(location, port: port, clock: clock)
        try await statuses.wait { if case .synced = $0 { true } else { false } }
        #expect(try store.outboxCount() == 0)
        await service.stop()
        await server.stop()
    }

    /// A district runs several server processes on one PostgreSQL
    /// database behind one address: whichever a device reaches, it sees the
    /// same changes, sign-ins and cursors.
    @Test func twoServerProcessesOnOneDatabaseAgree() async throws {
        let clock = TestClock()
        let location = try await Backend.postgresql.makeLocation()
        let a = try await startServer(location, clock: clock)
        let b = try await startServer(location, clock: clock)
        let clientA = try SchoolServerClient(address: URL(string: "http://127.0.0.1:\(a.port)")!)
        let clientB = try SchoolServerClient(address: URL(string: "http://127.0.0.1:\(b.port)")!)
        let token = try await clientA.signInTeacher(name: "Frau Berg", password: "correct horse").token
        let laptop = try LocalStore.inMemory(), other = try LocalStore.inMemory()
        let meta = SketchMeta(name: "Zwei Server", createdAt: Date(timeIntervalSince1970: 1_790_000_000))
        try laptop.createSketch(meta)
        try laptop.append(.addStroke(Self.stroke(x: 10)), to: meta.id)
        // Pushed through one process with a token the other one issued…
        _ = try await SyncService(store: laptop, connection: clientA.connection(token: token), key: "k").syncOnce()
        try laptop.append(.addStroke(Self.stroke(x: 20)), to: meta.id)
        _ = try await SyncService(store: laptop, connection: clientB.connection(token: token), key: "k").syncOnce()
        // …and pulled through the other: everything, once.
        _ = try await SyncService(store: other, connection: clientB.connection(token: token), key: "k").syncOnce()
        #expect(try other.loadSketch(meta.id) == laptop.loadSketch(meta.id))
        await clientA.shutdown()
        await clientB.shutdown()
        await a.stop()
        await b.stop()
    }

    @Test(arguments: Backend.allCases)
    func aRevokedSignInStopsSyncAndSaysSo(_ backend: Backend) async throws {
        try await TestServer(backend).run { api in
            let (_, berg) = try await api.teacher("Frau Berg")
            let client = try SchoolServerClient(address: URL(string: "http://127.0.0.1:\(try #require(api.client.port))")!)
            defer { Task { await client.shutdown() } }
            #expect(try await api.call(.delete, "/sessions/current", token: berg).status == .noContent)
            let statuses = StatusLog()
            let store = try LocalStore.inMemory()
            let service = SyncService(store: store, connection: client.connection(token: berg), key: "k",
                                      onStatus: { statuses.append($0) })
            await #expect(throws: SchoolConnectionError.signedOut) { try await service.syncOnce() }
            #expect(statuses.all.last == .signedOut)
        }
    }

    static func stroke(x: Double) -> Stroke {
        let start = Date(timeIntervalSince1970: 1_790_000_000 + x)
        return Stroke(author: "Mia", color: RGBA(r: 0.1, g: 0.4, b: 0.9, a: 1), width: 10, start: Point(x, 100),
                      segments: [CubicSegment(c1: Point(x + 10, 200), c2: Point(x + 20, 300), end: Point(x + 30, 400))],
                      startedAt: start, endedAt: start.addingTimeInterval(1))
    }
}

/// A server on a fixed port that can be stopped and started again on the
/// same database, as when a school's server restarts.
struct RunningServer {
    let task: Task<Void, any Error>
    let database: any ServerDatabase
    let port: Int

    func stop() async {
        let phase = Watchdog.tracker("server on port \(port)")
        phase.enter("stopping the server")
        task.cancel()
        _ = await task.result
        phase.enter("closing the database")
        await database.close()
        phase.leave()
    }
}

/// `port` 0: any free port (the one taken is in `RunningServer.port`). A
/// server that cannot start (its port taken) fails the test saying so,
/// instead of leaving it waiting for a start that never comes.
func startServer(_ location: DatabaseLocation, port: Int = 0, clock: TestClock) async throws -> RunningServer {
    let database = try await location.open(logger: Logger(label: "test"), clock: clock.clock)
    _ = try? await Accounts.createTeacher(PersonName("Frau Berg")!, password: "correct horse", database: database,
                                          hasher: testHasher, clock: clock.clock)
    var configuration = ServerConfiguration()
    configuration.host = "127.0.0.1"
    configuration.port = port
    let (ports, running) = AsyncStream<Int>.makeStream()
    let app = try buildApplication(configuration,
                                   dependencies: ServerDependencies(database: database, hasher: testHasher, clock: clock.clock),
                                   onServerRunning: { running.yield($0) })
    let task = Task {
        // However the server ends, nobody waits for its start any more.
        defer { running.finish() }
        try await app.runService(gracefulShutdownSignals: [])
    }
    var iterator = ports.makeAsyncIterator()
    let phase = Watchdog.tracker("server on port \(port)")
    phase.enter("starting the server")
    defer { phase.leave() }
    guard let bound = await iterator.next() else {
        let why = switch await task.result { case .failure(let error): "\(error)"; case .success: "it ended" }
        await database.close()
        throw TestSetupProblem("the server did not start on port \(port): \(why)")
    }
    return RunningServer(task: task, database: database, port: bound)
}

/// A free loopback port below Linux's ephemeral range (32768–60999), for
/// a server that must come back on the same port. A port the kernel gave
/// out for port 0 is in that range, and the many connections of the tests
/// running beside take ports from it too: one of them could hold it when
/// the server binds (again), and the server would not start.
func portOutsideTheEphemeralRange() throws -> Int {
    for _ in 0..<200 {
        let candidate = Int.random(in: 20_000..<30_000)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { continue }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(candidate).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        if bound == 0 { return candidate }
    }
    throw TestSetupProblem("no free port between 20000 and 30000")
}

/// The statuses a service reported, and a way to wait for one.
final class StatusLog: @unchecked Sendable {
    private let lock = NSLock()
    private var statuses: [SyncStatus] = []

    func append(_ status: SyncStatus) { lock.withLock { statuses.append(status) } }
    var all: [SyncStatus] { lock.withLock { statuses } }

    func wait(seconds: Double = 20, for match: (SyncStatus) -> Bool) async throws {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if all.contains(where: match) { return }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw TestSetupProblem("no such status in \(all)")
    }
}

/// The app's own client, talking to the test server.
func appClient(_ api: TestAPI) throws -> SchoolServerClient {
    try SchoolServerClient(address: URL(string: "http://127.0.0.1:\(try #require(api.client.port))")!)
}

/// A value a `@Sendable` callback adds to and the test reads.
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value
    init(_ value: Value) { self.value = value }
    func withLock<T>(_ body: (inout Value) -> T) -> T { lock.withLock { body(&value) } }
}
