import Foundation
import LearnModel
import TeamsketchCore
import Testing

@Suite struct ClassWallTests {
    let now = ContinuousClock.now
    var list = DiscoveryList()

    /// A session announced from `host` as discovery lists it (addresses from
    /// the documentation range: nothing is sent anywhere).
    mutating func announce(_ id: String, _ name: String, from host: String, activity: SessionActivity = .sketch,
                           version: Int = SessionAnnouncement.currentProtocolVersion) {
        let a = SessionAnnouncement(sessionID: id, hostName: name, activity: activity, port: 47851, protocolVersion: version)
        list.record(DiscoveryFinding(mechanism: .beacon, announcement: a, host: host, seen: now))
    }

    @Test mutating func onlyTeamSketchesThisAppCanReadFromTheirOwnHostGoOnTheWall() {
        announce("s-mia", "Mia", from: "192.0.2.2")
        announce("w-ole", "Ole", from: "192.0.2.3", activity: .wordpost)
        announce("s-old", "Ada", from: "192.0.2.4", version: SessionAnnouncement.currentProtocolVersion + 1)
        announce("s-ben", "Ben", from: "192.0.2.5")
        // Someone else announces Mia's session id: a copy, never joined.
        announce("s-mia", "Mia", from: "192.0.2.9")
        var wall = ClassWall()
        let added = wall.found(list.sessions)
        #expect(added.map(\.hostName) == ["Mia", "Ben"])
        #expect(wall.groups.map(\.sessionID) == ["s-mia", "s-ben"])
        #expect(wall.groups.allSatisfy { $0.status == .connecting })
        #expect(wall.groups[0].address == SessionAddress(host: "192.0.2.2", port: 47851))
        #expect(wall.found(list.sessions).isEmpty, "a group is joined once")
    }

    @Test mutating func groupsKeepTheOrderTheyWereFirstSeenIn() {
        announce("s-b", "Ben", from: "192.0.2.5")
        var wall = ClassWall()
        wall.found(list.sessions)
        announce("s-a", "Ada", from: "192.0.2.4")
        announce("s-b", "Ben P.", from: "192.0.2.5")
        #expect(wall.found(list.sessions).map(\.hostName) == ["Ada"])
        #expect(wall.groups.map(\.hostName) == ["Ben P.", "Ada"], "a renamed host keeps its place")
    }

    @Test mutating func onceTheTeachersClassesAreKnownTheClassNextDoorLeavesTheWall() {
        let mine = ClassTag(classID: "c-3b"), nextDoor = ClassTag(classID: "c-4a")
        for (id, tag, host) in [("s-mia", mine, "192.0.2.2"), ("s-ole", nextDoor, "192.0.2.3"), ("s-ada", nil, "192.0.2.4")] {
            let a = SessionAnnouncement(sessionID: id, hostName: id, activity: .sketch, port: 47851, classTag: tag)
            list.record(DiscoveryFinding(mechanism: .beacon, announcement: a, host: host, seen: now))
        }
        var wall = ClassWall()
        #expect(wall.found(list.sessions).count == 3, "before the classes are known, every group")
        wall.found(list.sessions, classes: [mine])
        #expect(wall.groups.map(\.sessionID) == ["s-mia", "s-ada"], "a laptop nobody signed in on stays")
        #expect(wall.found(list.sessions, classes: [mine]).isEmpty)
    }

    @Test func aPupilsSignInAnnouncesTheirClassATeachersNone() {
        var signIn = SchoolSignIn(server: "https://school.example", accountID: "p1", name: "Mia", isTeacher: false,
                                  token: "t", expiresAt: .distantFuture, classID: "c-3b")
        #expect(signIn.classTag == ClassTag(classID: "c-3b"))
        signIn.isTeacher = true
        #expect(signIn.classTag == nil)
    }

    @Test mutating func theWallProvesItsOwnClassesToTheirGroupsOnly() {
        let mine = ClassTag(classID: "c-3b"), nextDoor = ClassTag(classID: "c-4a")
        let session = UUID(), key = [UInt8](repeating: 3, count: WatchProof.size), watcher = UUID()
        for (id, tag, host) in [(session.uuidString.lowercased(), mine, "192.0.2.2"), ("s-ole", nextDoor, "192.0.2.3"),
                                ("s-ada", nil, "192.0.2.4")] {
            let a = SessionAnnouncement(sessionID: id, hostName: id, activity: .sketch, port: 47851, classTag: tag)
            list.record(DiscoveryFinding(mechanism: .beacon, announcement: a, host: host, seen: now))
        }
        var wall = ClassWall()
        let groups = wall.found(list.sessions)
        let keys = [mine: key]
        let proofs = groups.map { ClassWall.proof(for: $0, keys: keys, watcher: watcher) }
        #expect(WatchProof.verify(proofs[0], key: key, session: session, watcher: watcher, dialled: "192.0.2.2:47851"))
        #expect(!WatchProof.verify(proofs[0], key: key, session: session, watcher: watcher, dialled: "192.0.2.9:47851"))
        #expect(proofs[1] == nil, "another class's group: no key for it")
        #expect(proofs[2] == nil, "a laptop nobody signed in on: no class to prove")
    }

    @Test func aPupilsSignInChecksWatchersWithTheirClassesKeyATeachersNone() {
        let hex = String(repeating: "ab", count: 32)
        var signIn = SchoolSignIn(server: "https://school.example", accountID: "p1", name: "Mia", isTeacher: false,
                                  token: "t", expiresAt: .distantFuture, classID: "c-3b", classWatchKey: hex)
        #expect(signIn.hostWatchKey == [UInt8](repeating: 0xab, count: 32))
        signIn.isTeacher = true
        #expect(signIn.hostWatchKey == nil)
        signIn.isTeacher = false
        signIn.classWatchKey = "not a key"
        #expect(signIn.hostWatchKey == nil)
    }

    @Test mutating func theWallHoldsAtMostTwelveGroups() {
        for i in 0..<15 { announce("s-\(i)", "P\(i)", from: "192.0.2.\(i + 1)") }
        var wall = ClassWall()
        #expect(wall.found(list.sessions).count == ClassWall.maxGroups)
        #expect(wall.groups.count == ClassWall.maxGroups)
    }

    @Test func theStatusFollowsWhatTheSessionSays() {
        var s = ClassWall.Status.connecting
        let lobby = Lobby(sessionID: UUID(), createdAt: WireTime(milliseconds: 0), params: SessionParams(name: "L"),
                          settings: SessionSettings(), hostPeerID: UUID(), members: [], started: true)
        s = ClassWall.status(after: .lobbyChanged(lobby), from: s)
        #expect(s == .waiting)
        s = ClassWall.status(after: .accepted(index: 3, token: ResumeToken(high: 1, low: 1), sketch: SessionSketch()), from: s)
        #expect(s == .watching)
        s = ClassWall.status(after: .connectionLost(reason: "reset"), from: s)
        #expect(s == .reconnecting)
        s = ClassWall.status(after: .lobbyChanged(lobby), from: s)
        #expect(s == .reconnecting, "the lobby alone does not mean the host let us back in")
        s = ClassWall.status(after: .documentReset(SketchDocument(meta: SketchMeta(name: "L")), live: []), from: s)
        #expect(s == .watching)
        s = ClassWall.status(after: .ended(.hostEnded), from: s)
        #expect(s == .ended)
        s = ClassWall.status(after: .accepted(index: 3, token: ResumeToken(high: 1, low: 1), sketch: SessionSketch()), from: s)
        #expect(s == .ended, "an ended group stays ended")
        #expect(ClassWall.status(after: .declined(.byHost), from: .waiting) == .declined)
    }

    @Test mutating func aGroupThatIsOverLeavesOnceDiscoveryNoLongerSeesIt() {
        announce("s-a", "Ada", from: "192.0.2.4")
        announce("s-b", "Ben", from: "192.0.2.5")
        var wall = ClassWall()
        wall.found(list.sessions)
        wall.apply(.ended(.hostEnded), to: "s-a")
        wall.apply(.accepted(index: 1, token: ResumeToken(high: 2, low: 2), sketch: SessionSketch()), to: "s-b")
        // Both vanish from discovery (the host left; a beacon was missed).
        var gone = list
        gone.remove(sessionID: "s-a", mechanism: .beacon)
        gone.remove(sessionID: "s-b", mechanism: .beacon)
        wall.found(gone.sessions)
        #expect(wall.groups.map(\.hostName) == ["Ben"], "a live group stays; the ended one goes")
        #expect(wall.group("s-b")?.status == .watching)
        wall.unreachable("s-b")
        wall.found(gone.sessions)
        #expect(wall.groups.isEmpty)
    }

    @Test func theLayoutMakesEachSheetAsLargeAsTheScreenAllows() {
        // A projector (16:9) and 4:3 sheets.
        #expect(WallLayout.best(count: 2, width: 1920, height: 1000, sheetAspect: 4 / 3) == WallLayout(columns: 2, rows: 1))
        #expect(WallLayout.best(count: 8, width: 1920, height: 1000, sheetAspect: 4 / 3) == WallLayout(columns: 4, rows: 2))
        #expect(WallLayout.best(count: 4, width: 1366, height: 700, sheetAspect: 4 / 3) == WallLayout(columns: 2, rows: 2))
        // A tall screen stacks them.
        #expect(WallLayout.best(count: 3, width: 700, height: 1600, sheetAspect: 4 / 3) == WallLayout(columns: 1, rows: 3))
        #expect(WallLayout.best(count: 0, width: 800, height: 600, sheetAspect: 4 / 3) == WallLayout(columns: 1, rows: 1))
        #expect(WallLayout.best(count: 5, width: 1920, height: 1000, sheetAspect: .nan).columns * 2 >= 5)
        let layout = WallLayout(columns: 3, rows: 2)
        #expect(layout.place(4) == (row: 1, column: 1))
        // 4:3 sheets in 3 × 2 cells of 640 × 500: the height binds (500 - 44)…
        #expect(layout.sheetHeight(width: 1920, height: 1000, sheetAspect: 4 / 3) == 456)
        // …and in one row of three, the width does ((640 - 12) / (4/3)).
        #expect(WallLayout(columns: 3, rows: 1).sheetHeight(width: 1920, height: 1000, sheetAspect: 4 / 3) == 471)
    }

    @Test func aWatchedSheetShowsOtherPeoplesInkAsItArrives() {
        var rig = CanvasRig(shared: true, permissions: .watching)
        let id = UUID()
        let pts = stride(from: 200.0, through: 800, by: 100).map { Point($0, 400) }
        let segs = lines(pts)
        let begun = SessionEvent.strokeBegan(liveStroke(id: id, start: pts[0], segments: [segs[0]]), isOwn: false)
        rig.send(CanvasEvent(sheetOf: begun)!)
        rig.send(CanvasEvent(sheetOf: .strokeExtended(id: id, sender: 2, firstIndex: 1, segments: Array(segs[1...]),
                                                      isOwn: false))!)
        #expect(rig.isInk(rig.engine.viewport.toWidget(Point(650, 400)), .red))
        #expect(CanvasEvent(sheetOf: .memberLeft(2)) == nil)
        #expect(CanvasEvent(sheetOf: .strokeBegan(liveStroke(start: pts[0]), isOwn: true)) == nil,
                "own ink is drawn by the pen, not again from the echo")
    }
}
