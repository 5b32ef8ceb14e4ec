import Foundation
import HTTPTypes
import Testing
@testable import SchoolServer

/// Who may read a class's names for signing in: not anyone on the network,
/// only a device the class has seen or one the teacher gave the class's code.
@Suite struct RosterTests {
    static let stranger = TestAPI.device("someone-elses-laptop-000000")

    @Test(arguments: Backend.allCases)
    func aStrangerLearnsNoNamesAndTheCodeOpensTheClassOnADevice(_ backend: Backend) async throws {
        try await TestServer(backend).run { api in
            let (_, berg) = try await api.teacher("Frau Berg")
            let (_, kurz) = try await api.teacher("Herr Kurz")
            let twoB = try await api.schoolClass("2b", teacher: berg, pupils: ["Mia", "Ole"])
            _ = try await api.schoolClass("4c", teacher: kurz, pupils: ["Kim"])

            // Without a mark, or with one the classes never saw: nothing.
            #expect(try await api.call(.get, "/sign-in/classes").array.isEmpty)
            #expect(try await api.call(.get, "/sign-in/classes", headers: Self.stranger).array.isEmpty)
            #expect(try await api.call(.get, "/sign-in/classes/\(twoB.id)/pupils").status == .notFound)
            #expect(try await api.call(.get, "/sign-in/classes/\(twoB.id)/pupils", headers: Self.stranger).status == .notFound)

            // The code is the teacher's: in their list, not a pupil's or another teacher's.
            let bergs = try await api.call(.get, "/classes", token: berg).array
            let code = try #require(bergs.first?["code"] as? String)
            #expect(code.count == 9 && code.contains("-"))
            #expect(try await api.call(.get, "/classes", token: twoB.pupils["Mia"]!.token).array.first?["code"] == nil)
            #expect(try await api.call(.get, "/classes", token: kurz).array.allSatisfy { $0["code"] as? String != code })

            // Typed on the new kiosk as a teacher would read it out.
            let typed = " " + code.lowercased().replacingOccurrences(of: "-", with: " ") + " "
            let listed = try await api.call(.get, "/sign-in/classes?code=\(typed.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)",
                                            headers: TestAPI.kiosk)
            #expect(listed.array.map { $0["name"] as? String } == ["2b"])
            // From then on the kiosk lists the class and its names by itself.
            #expect(try await api.call(.get, "/sign-in/classes", headers: TestAPI.kiosk).array.map { $0["name"] as? String } == ["2b"])
            let names = try await api.call(.get, "/sign-in/classes/\(twoB.id)/pupils", headers: TestAPI.kiosk).array
            #expect(names.compactMap { $0["name"] as? String } == ["Mia", "Ole"])
            // The code alone shows the names too, without a mark kept.
            #expect(try await api.call(.get, "/sign-in/classes/\(twoB.id)/pupils?code=\(code)").array.count == 2)
            #expect(try await api.call(.get, "/sign-in/classes", headers: Self.stranger).array.isEmpty)
        }
    }

    @Test(arguments: Backend.allCases)
    func aDeviceAClassSignedInOnKnowsTheClass(_ backend: Backend) async throws {
        try await TestServer(backend).run { api in
            let (_, berg) = try await api.teacher("Frau Berg")
            let twoB = try await api.schoolClass("2b", teacher: berg, pupils: ["Mia"])
            let oneA = try await api.schoolClass("1a", teacher: berg, pupils: ["Ben"])
            let laptop = TestAPI.device("mias-laptop-000000000000000")
            let signedIn = try await api.call(.post, "/sign-in/pupil", json: ["pupilId": twoB.pupils["Mia"]!.id, "pictures": [1, 2, 3]],
                                              headers: laptop)
            #expect(signedIn.status == .created)
            #expect(try await api.call(.get, "/sign-in/classes", headers: laptop).array.map { $0["id"] as? String } == [twoB.id])
            #expect(try await api.call(.get, "/sign-in/classes/\(oneA.id)/pupils", headers: laptop).status == .notFound)
            // A wrong try teaches the device nothing.
            let other = TestAPI.device("a-guessing-laptop-000000000")
            _ = try await api.call(.post, "/sign-in/pupil", json: ["pupilId": oneA.pupils["Ben"]!.id, "pictures": [3, 2, 1]], headers: other)
            #expect(try await api.call(.get, "/sign-in/classes", headers: other).array.isEmpty)
            // The teacher signing in on a kiosk sets it up for all her
            // classes, an archived one offered there once it is restored.
            _ = try await api.call(.put, "/classes/\(oneA.id)/archived", token: berg, json: ["archived": true])
            try await api.signIn("Frau Berg", on: TestAPI.kiosk)
            #expect(try await api.call(.get, "/sign-in/classes", headers: TestAPI.kiosk).array.compactMap { $0["id"] as? String }
                    == [twoB.id])
            _ = try await api.call(.put, "/classes/\(oneA.id)/archived", token: berg, json: ["archived": false])
            #expect(Set(try await api.call(.get, "/sign-in/classes", headers: TestAPI.kiosk).array.compactMap { $0["id"] as? String })
                    == [twoB.id, oneA.id])
        }
    }

    /// Someone of the class, signed in, lists it on any device: a pupil's
    /// laptop puts a team game's names to accounts with it.
    @Test(arguments: Backend.allCases)
    func theClassItselfListsItsNamesAnywhere(_ backend: Backend) async throws {
        try await TestServer(backend).run { api in
            let (_, berg) = try await api.teacher("Frau Berg")
            let (_, kurz) = try await api.teacher("Herr Kurz")
            let twoB = try await api.schoolClass("2b", teacher: berg, pupils: ["Mia", "Ole"])
            let fourC = try await api.schoolClass("4c", teacher: kurz, pupils: ["Kim"])
            let mia = twoB.pupils["Mia"]!.token
            #expect(try await api.call(.get, "/sign-in/classes/\(twoB.id)/pupils", token: mia).array.count == 2)
            #expect(try await api.call(.get, "/sign-in/classes/\(twoB.id)/pupils", token: berg).array.count == 2)
            #expect(try await api.call(.get, "/sign-in/classes/\(fourC.id)/pupils", token: mia).status == .notFound)
            #expect(try await api.call(.get, "/sign-in/classes/\(twoB.id)/pupils", token: kurz).status == .notFound)
            #expect(try await api.call(.get, "/sign-in/classes/\(twoB.id)/pupils", token: String(repeating: "a", count: 43)).status
                    == .notFound)
            // A code that cannot be one is the caller's mistake, even where none is needed.
            let long = String(repeating: "A", count: 41)
            #expect(try await api.call(.get, "/sign-in/classes/\(twoB.id)/pupils?code=\(long)", token: mia).status == .badRequest)
            #expect(try await api.call(.get, "/sign-in/classes?code=\(long)").status == .badRequest)
        }
    }

    @Test func wrongCodesAreCountedLikeWrongPicturesAndNoMarkIsTakenOnTrust() async throws {
        try await TestServer(.sqlite).run { api in
            let (_, berg) = try await api.teacher("Frau Berg")
            let twoB = try await api.schoolClass("2b", teacher: berg, pupils: ["Mia"])
            let code = try #require(try await api.call(.get, "/classes", token: berg).array.first?["code"] as? String)
            for guess in ["AAAA-AAAA", "CCCC-CCCC", "xyz", "DDDD-DDDD", "EEEE-EEEE"] {
                #expect(try await api.call(.get, "/sign-in/classes?code=\(guess)", headers: Self.stranger).status == .notFound)
            }
            let stopped = try await api.call(.get, "/sign-in/classes?code=\(code)", headers: Self.stranger)
            #expect(stopped.status == .tooManyRequests && stopped.headers[.retryAfter] != nil)
            // The guesser's device is stopped, not the teacher's kiosk at
            // the same address.
            #expect(try await api.call(.get, "/sign-in/classes/\(twoB.id)/pupils?code=\(code)", headers: TestAPI.kiosk).status == .ok)
            // Right codes count too: one machine making up marks registers
            // no more than its address may try.
            var statuses: [HTTPResponse.Status] = []
            for n in 0..<30 {
                statuses.append(try await api.call(.get, "/sign-in/classes?code=\(code)",
                                                   headers: TestAPI.device("made-up-mark-\(n)-000000000000")).status)
            }
            // The address had tried 6 codes already (5 wrong, the kiosk's right one).
            #expect(statuses.last == .tooManyRequests && statuses.filter { $0 == .ok }.count == 30 - 6, "\(statuses)")
            // A mark that is no mark is refused, not hashed.
            for bad in ["short", String(repeating: "x", count: 65), "has space in it 00000000000"] {
                #expect(try await api.call(.get, "/sign-in/classes", headers: TestAPI.device(bad)).status == .badRequest, "\(bad)")
            }
            // An archived class's code opens nothing.
            api.clock.advance(seconds: 16 * 60)
            _ = try await api.call(.put, "/classes/\(twoB.id)/archived", token: berg, json: ["archived": true])
            #expect(try await api.call(.get, "/sign-in/classes?code=\(code)", headers: TestAPI.kiosk).status == .notFound)
        }
    }

    /// A class keeps the devices its pupils signed in on when more than it
    /// can remember were only given its code.
    @Test(arguments: Backend.allCases)
    func devicesOnlyGivenTheCodeGoFirst(_ backend: Backend) async throws {
        try await TestServer(backend).run { api in
            let (_, berg) = try await api.teacher("Frau Berg")
            let twoB = try await api.schoolClass("2b", teacher: berg, pupils: ["Mia"])
            let store = AccountStore(db: api.database)
            let classID = try #require(UUID(uuidString: twoB.id))
            try await store.remember(device: "laptop", forClasses: [classID], signedIn: true, now: 1)
            for n in 0...AccountStore.maxDevicesPerClass {
                try await store.remember(device: "code-only-\(n)", forClasses: [classID], signedIn: false, now: Int64(2 + n))
            }
            #expect(try await store.knows(device: "laptop", inClass: classID))
            #expect(try await !store.knows(device: "code-only-0", inClass: classID), "the oldest code-only one went")
            #expect(try await store.knows(device: "code-only-\(AccountStore.maxDevicesPerClass)", inClass: classID))
            // A code typed on the laptop later does not demote it.
            try await store.remember(device: "laptop", forClasses: [classID], signedIn: false, now: 9_999)
            let row = try await api.database.query("SELECT signedIn FROM classDevice WHERE device = 'laptop'").first
            #expect(row?["signedIn"].int == 1)
        }
    }

    @Test func codesAreReadAsTypedAndMadeWithoutLookAlikes() {
        #expect(ClassCode(typed: "acde-fhjk")?.text == "ACDEFHJK")
        #expect(ClassCode(typed: " AC DE FH JK ")?.shown == "ACDE-FHJK")
        for bad in ["", "ACDEFHJ", "ACDEFHJKM", "ACDE0HJK", "ACDE6HJK", "ÄCDEFHJK", String(repeating: " ", count: 41)] {
            #expect(ClassCode(typed: bad) == nil, "\(bad)")
        }
        let made = (0..<200).map { _ in ClassCode.random().text }
        #expect(made.allSatisfy { $0.count == 8 && $0.allSatisfy(ClassCode.alphabet.contains) })
        #expect(Set(made).count == 200)
    }
}
