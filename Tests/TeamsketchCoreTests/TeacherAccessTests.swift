import Foundation
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
}

@Suite struct TeacherAccessTests {
    let now = Date(timeIntervalSince1970: 2_000_000)

    func signIn(teacher: Bool, expires: TimeInterval = 3600) -> SchoolSignIn {
        SchoolSignIn(server: "http://s", accountID: "a", name: "Frau Weber", isTeacher: teacher, token: "t",
                     expiresAt: now.addingTimeInterval(expires))
    }

    @Test func aSignedInTeacherIsLetInAndEveryoneElseIsAskedForThePIN() throws {
        let pin = try #require(TeacherPIN.make("2468", salt: [1]))
        #expect(TeacherAccess.decide(signIn: signIn(teacher: true), pin: nil, now: now) == .signedIn(name: "Frau Weber"))
        #expect(TeacherAccess.decide(signIn: signIn(teacher: false), pin: pin, now: now) == .askPIN, "a pupil's sign-in is no key")
        #expect(TeacherAccess.decide(signIn: signIn(teacher: true, expires: -1), pin: pin, now: now) == .askPIN)
        #expect(TeacherAccess.decide(signIn: nil, pin: nil, now: now) == .choosePIN)
    }
}
