import Foundation
import LearnModel
import LearnStore
import TeamsketchCore
import Testing

@Suite struct TeacherPINTests {
    @Test(arguments: ["123", "123456789", "12a4", "１２３４", ""])
    func onlyFourToEightDigitsMakeAPIN(pin: String) {
        #expect(TeacherPIN.make(pin) == nil)
    }

    @Test func thePINIsKeptOnlyAsASaltedHash() throws {
        let pin = try #require(TeacherPIN.make("4711", salt: [9, 9, 9]))
        #expect(!pin.hash.contains("4711") && !pin.salt.contains("4711"))
        #expect(pin.matches("4711"))
        #expect(!pin.matches("4712") && !pin.matches("47110") && !pin.matches(""))
        let other = try #require(TeacherPIN.make("4711", salt: [1, 2, 3]))
        #expect(other.hash != pin.hash, "the same PIN on another machine has another hash")
        #expect(!TeacherPIN(salt: "zz", hash: pin.hash).matches("4711"), "a damaged salt matches nothing")
    }

    @Test func wrongTriesMakeTheNextTryWaitLongerEachTime() throws {
        let pin = try #require(TeacherPIN.make("2468", salt: [7]))
        var gate = TeacherPINGate()
        let t0 = Date(timeIntervalSince1970: 1_000_000)
        #expect(gate.check("1111", against: pin, now: t0) == .wrong)
        #expect(gate.check("1112", against: pin, now: t0) == .wrong)
        #expect(gate.check("1113", against: pin, now: t0) == .wait(seconds: 30))
        #expect(gate.check("2468", against: pin, now: t0.addingTimeInterval(10)) == .wait(seconds: 20),
                "even the right PIN waits")
        #expect(gate.check("1114", against: pin, now: t0.addingTimeInterval(31)) == .wait(seconds: 60))
        #expect(gate.check("2468", against: pin, now: t0.addingTimeInterval(92)) == .open)
        #expect(gate.check("1111", against: pin, now: t0.addingTimeInterval(93)) == .wrong, "opening forgives")
    }

    @Test func theWaitSurvivesARestartAndAClockSetBackIsCut() throws {
        var gate = TeacherPINGate()
        let t0 = Date(timeIntervalSince1970: 1_000_000)
        for _ in 0..<3 { _ = gate.check(matches: false, now: t0) }
        let kept = try JSONDecoder().decode(TeacherPINGate.self, from: JSONEncoder().encode(gate))
        #expect(kept.waiting(now: t0.addingTimeInterval(10)) == 20)
        #expect(kept.waiting(now: t0.addingTimeInterval(-86_400)) == TeacherPINGate.longestWait,
                "a clock set back a day does not lock the teacher out for a day")
        #expect(kept.waiting(now: t0.addingTimeInterval(31)) == nil)
    }

    @Test func aDamagedSetUpKeepsWhatItCanAndSaysSo() throws {
        let pin = try #require(TeacherPIN.make("2468", salt: [1]))
        var json = try JSONSerialization.jsonObject(with: JSONEncoder().encode(DeviceClassroom(pin: pin, server: "http://s"))) as! [String: Any]
        json["settings"] = ["activities": ["flying"]]
        let read = try JSONDecoder().decode(DeviceClassroom.self, from: JSONSerialization.data(withJSONObject: json))
        #expect(read.pin == pin && read.server == "http://s" && read.settings == nil && !read.unreadable)
    }
}

@Suite struct TeacherAccessTests {
    let now = Date(timeIntervalSince1970: 2_000_000)

    func signIn(teacher: Bool, expires: TimeInterval = 3600) -> SchoolSignIn {
        SchoolSignIn(server: "http://s", accountID: "a", name: "Frau Weber", isTeacher: teacher, token: "t",
                     expiresAt: now.addingTimeInterval(expires))
    }

    @Test func thePINAlwaysGuardsAndOnlyAComputerWithoutServerOffersANewOne() throws {
        let pin = try #require(TeacherPIN.make("2468", salt: [1]))
        let withPIN = DeviceClassroom(pin: pin)
        #expect(TeacherAccess.decide(signIn: signIn(teacher: true), device: withPIN, now: now) == .askPIN,
                "a sign-in stays on the laptop for days; the PIN keeps children out")
        #expect(TeacherAccess.decide(signIn: signIn(teacher: true), device: DeviceClassroom(), now: now)
                == .signedIn(name: "Frau Weber"), "no PIN: the signed-in teacher's own laptop")
        #expect(TeacherAccess.decide(signIn: signIn(teacher: false), device: withPIN, now: now) == .askPIN)
        #expect(TeacherAccess.decide(signIn: nil, device: DeviceClassroom(), now: now) == .choosePIN)
        #expect(TeacherAccess.decide(signIn: nil, device: DeviceClassroom(server: "http://s"), now: now) == .signInAtServer,
                "a school's computer: a pupil cannot make themselves the teacher")
        #expect(TeacherAccess.decide(signIn: signIn(teacher: false), device: DeviceClassroom(), now: now) == .signInAtServer)
        #expect(TeacherAccess.decide(signIn: signIn(teacher: true, expires: -1), device: DeviceClassroom(), now: now)
                == .signInAtServer)
        #expect(TeacherAccess.decide(signIn: nil, device: .damaged, now: now) == .signInAtServer,
                "breaking the file does not open a new PIN")
    }

    /// A kiosk whose closing needs the PIN stands where anyone walks by:
    /// without a PIN set, nobody there may choose one (and so quit), and a
    /// teacher's sign-in left on the laptop opens nothing either.
    @Test func aKioskWithoutAPINOpensToNobody() throws {
        #expect(TeacherAccess.decide(signIn: nil, device: DeviceClassroom(), now: now, kiosk: true) == .kioskWithoutPIN)
        #expect(TeacherAccess.decide(signIn: signIn(teacher: true), device: DeviceClassroom(), now: now, kiosk: true)
                == .kioskWithoutPIN)
        let withPIN = DeviceClassroom(pin: try #require(TeacherPIN.make("2468", salt: [1])))
        #expect(TeacherAccess.decide(signIn: nil, device: withPIN, now: now, kiosk: true) == .askPIN)
    }
}

@Suite struct PupilSignInTests {
    let now = Date(timeIntervalSince1970: 2_000_000)

    func signIn(teacher: Bool, server: String = "http://school:8470") -> SchoolSignIn {
        SchoolSignIn(server: server, accountID: "a", name: "Mia", isTeacher: teacher, token: "t",
                     expiresAt: now.addingTimeInterval(3600), classID: teacher ? nil : "c")
    }

    @Test func threePicturesOfNineAndNoMore() {
        #expect(PicturePassword.pictures.count == 9)
        var p = PicturePassword()
        let outside = [p.tap(9), p.tap(-1)]
        #expect(outside == [false, false])
        let taps = [p.tap(4), p.tap(4), p.tap(0)]
        #expect(taps == [true, true, true])
        #expect(p.isComplete && p.chosen == [4, 4, 0])
        let fourth = p.tap(1)
        #expect(!fourth, "a fourth picture is not taken")
        p.removeLast()
        #expect(p.chosen == [4, 4])
        p.reset()
        #expect(p.chosen.isEmpty)
    }

    @Test func meLeadsToThePicturesWhereAServerIsKnown() {
        #expect(MeRoute.decide(signIn: nil, rememberedServer: nil, now: now) == .profile(signedInPupil: false))
        #expect(MeRoute.decide(signIn: nil, rememberedServer: "http://s", now: now) == .pictureSignIn(server: "http://s"))
        #expect(MeRoute.decide(signIn: signIn(teacher: false), rememberedServer: "http://s", now: now)
                == .profile(signedInPupil: true))
        #expect(MeRoute.decide(signIn: signIn(teacher: true), rememberedServer: "http://s", now: now)
                == .profile(signedInPupil: false), "a teacher's sign-in is not replaced by a pupil's")
    }

    @Test @MainActor func theDeviceRemembersTheServerAndThePupilsClass() throws {
        let classroom = DeviceClassroomClient.inMemory()
        let prefs = DevicePreferences(client: .inMemory(), classroom: classroom, overrides: SettingsOverrides(), userName: nil)
        try prefs.rememberSchool(signIn(teacher: true))
        #expect(classroom.load().server == "http://school:8470" && classroom.load().classID == nil)
        try prefs.rememberSchool(signIn(teacher: false))
        #expect(classroom.load().classID == "c")
        try prefs.rememberSchool(signIn(teacher: true, server: "http://other"))
        #expect(classroom.load().classID == "c", "a teacher's sign-in keeps the pupils' class")
    }

    @Test func anyErrorReadsAsAFailureAPupilUnderstands() {
        struct Odd: Error {}
        #expect(PupilDirectory.Failure(Odd()) == .unreachable)
        #expect(PupilDirectory.Failure(PupilDirectory.Failure.wrongPictures) == .wrongPictures)
    }
}

@Suite struct OwnWorkTests {
    func doc(_ authors: [String]) -> SketchDocument {
        SketchDocument(meta: SketchMeta(name: "S"), ops: authors.map { author in
            .addStroke(Stroke(author: author, color: PenColor.red.rgba, width: 4, start: Point(1, 1), segments: [],
                              startedAt: Date(), endedAt: Date()))
        })
    }

    @Test func aPupilSeesTheirOwnAndTheirTeamsSketchesOnly() {
        #expect(OwnWork.includes(doc(["Mia"]), pupil: "Mia"))
        #expect(OwnWork.includes(doc(["Ole", "Mia"]), pupil: "Mia"), "a team sketch Mia drew in")
        #expect(!OwnWork.includes(doc(["Ole", "Ben"]), pupil: "Mia"), "another child's work")
        #expect(OwnWork.includes(doc([]), pupil: "Mia"), "just started")
    }
}

@Suite struct OwnWorkListingTests {
    let now = Date(timeIntervalSince1970: 2_000_000)

    func signIn(teacher: Bool) -> SchoolSignIn {
        SchoolSignIn(server: "http://s", accountID: "a", name: "Mia", isTeacher: teacher, token: "t",
                     expiresAt: now.addingTimeInterval(3600))
    }

    @Test func aSchoolsComputerShowsWorkOnlyToWhoSignedIn() {
        #expect(OwnWork.Listing.decide(signIn: nil, rememberedServer: nil, now: now) == .all, "a computer of one's own")
        #expect(OwnWork.Listing.decide(signIn: nil, rememberedServer: "http://s", now: now) == .signInFirst)
        #expect(OwnWork.Listing.decide(signIn: signIn(teacher: false), rememberedServer: "http://s", now: now) == .pupil("Mia"))
        #expect(OwnWork.Listing.decide(signIn: signIn(teacher: true), rememberedServer: "http://s", now: now) == .all)
    }

    @Test func aPupilThrowsAwayWhatTheyStartedNeverAClassmatesTeamSketch() {
        let mia = UUID(), ole = UUID()
        func sketch(_ startedBy: SketchSummary.StartedBy) -> SketchSummary {
            SketchSummary(id: UUID(), name: "S", guides: .none, createdAt: now, modifiedAt: now, opCount: 1, thumbnail: nil,
                          startedBy: startedBy)
        }
        let pupil = SchoolSignIn(server: "http://s", accountID: AccountID(mia), name: "Mia", isTeacher: false,
                                 token: "t", expiresAt: now.addingTimeInterval(3600))
        func may(_ s: SketchSummary, _ signIn: SchoolSignIn?, server: String? = "http://s") -> Bool {
            OwnWork.mayThrowAway(s, signIn: signIn, rememberedServer: server, now: now)
        }
        #expect(may(sketch(.alone), pupil), "drawn alone, listed for her")
        #expect(may(sketch(.team(host: mia)), pupil), "a team sketch she hosted")
        #expect(!may(sketch(.team(host: ole)), pupil), "Ole hosted it")
        #expect(!may(sketch(.team(host: nil)), pupil), "hosted by a laptop without an account")
        #expect(may(sketch(.team(host: ole)), signIn(teacher: true)), "the teacher")
        #expect(!may(sketch(.alone), nil), "a school's laptop with nobody signed in")
        #expect(may(sketch(.team(host: ole)), nil, server: nil), "a laptop used without a server")
        var gone = pupil
        gone.expiresAt = now.addingTimeInterval(-1)
        #expect(!may(sketch(.alone), gone), "her sign-in ran out")
    }
}
