import Foundation
import HTTPTypes
import Testing
@testable import SchoolServer

@Suite struct SignInTests {
    @Test(arguments: Backend.allCases)
    func healthNamesTheDatabase(_ backend: Backend) async throws {
        try await TestServer(backend).run { api in
            let answer = try await api.call(.get, "/health")
            #expect(answer.status == .ok)
            #expect(answer.object["status"] as? String == "ok")
            #expect(answer.object["database"] as? String == backend.rawValue)
        }
    }

    @Test(arguments: Backend.allCases)
    func aTeacherSignsInSeesThemselvesAndSignsOut(_ backend: Backend) async throws {
        try await TestServer(backend).run { api in
            let (id, token) = try await api.teacher("Frau Berg")
            let me = try await api.call(.get, "/me", token: token)
            #expect(me.status == .ok)
            #expect(me.object["id"] as? String == id)
            #expect(me.object["name"] as? String == "Frau Berg")
            #expect(me.object["role"] as? String == "teacher")
            #expect(try await api.call(.delete, "/sessions/current", token: token).status == .noContent)
            let after = try await api.call(.get, "/me", token: token)
            #expect(after.status == .unauthorized)
            #expect(after.problemCode == "unauthorized")
        }
    }

    @Test(arguments: Backend.allCases)
    func theNameIsFoundInAnyCaseAndAWrongPasswordIsRefused(_ backend: Backend) async throws {
        try await TestServer(backend).run { api in
            _ = try await api.teacher("Frau Berg")
            #expect(try await api.call(.post, "/sessions", json: ["name": "frau berg", "password": "correct horse"]).status == .created)
            let wrong = try await api.call(.post, "/sessions", json: ["name": "Frau Berg", "password": "wrong horse"])
            #expect(wrong.status == .unauthorized)
            let nobody = try await api.call(.post, "/sessions", json: ["name": "Herr Nobody", "password": "correct horse"])
            #expect(nobody.status == .unauthorized)
            #expect(nobody.body == wrong.body, "the answer does not tell which names exist")
        }
    }

    @Test(arguments: Backend.allCases)
    func aSecondTeacherOfTheSameNameIsRefused(_ backend: Backend) async throws {
        try await TestServer(backend).run { api in
            _ = try await api.teacher("Frau Berg")
            let again = try await Accounts.createTeacher(PersonName("FRAU BERG")!, password: "another one",
                                                         database: api.database, hasher: testHasher, clock: api.clock.clock)
            #expect(again == .nameTaken)
        }
    }

    @Test(arguments: Backend.allCases)
    func tokensExpire(_ backend: Backend) async throws {
        try await TestServer(backend).run { api in
            let (_, token) = try await api.teacher("Frau Berg")
            api.clock.advance(seconds: 14 * 24 * 3600 - 1)
            #expect(try await api.call(.get, "/me", token: token).status == .ok)
            api.clock.advance(seconds: 2)
            #expect(try await api.call(.get, "/me", token: token).status == .unauthorized)
            // The next sign-in forgets the expired token and a signed-out one.
            let other = try await api.call(.post, "/sessions", json: ["name": "Frau Berg", "password": "correct horse"])
            let signedOut = try #require(other.object["token"] as? String)
            #expect(try await api.call(.delete, "/sessions/current", token: signedOut).status == .noContent)
            _ = try await api.call(.post, "/sessions", json: ["name": "Frau Berg", "password": "correct horse"])
            let kept = try await api.database.query("SELECT COUNT(*) AS n FROM token")
            #expect(kept.first?["n"] == .int(1))
        }
    }

    @Test(arguments: Backend.allCases)
    func noTokenAWrongOneAndAMalformedHeaderAreRefused(_ backend: Backend) async throws {
        try await TestServer(backend).run { api in
            #expect(try await api.call(.get, "/me").status == .unauthorized)
            #expect(try await api.call(.get, "/me", token: BearerToken.random().text).status == .unauthorized)
            #expect(try await api.call(.get, "/me", token: "x'; DROP TABLE account; --").status == .unauthorized)
            let (_, token) = try await api.teacher("Frau Berg")
            for header in ["Basic \(token)", "Bearer", "Bearer  \(token)", token, "bearer \(token)x", ""] {
                #expect(try await api.call(.get, "/me", authorization: header).status == .unauthorized, "\(header)")
            }
            #expect(try await api.call(.get, "/me", authorization: "bearer \(token)").status == .ok, "the scheme has no case")
        }
    }

    @Test func behindATrustedProxyEachClientIsCountedByItsOwnAddress() async throws {
        var server = TestServer(.sqlite)
        server.configuration.trustedProxies = ["127.0.0.1"]
        try await server.run { api in
            func tryName(_ n: Int, from address: String) async throws -> HTTPResponse.Status {
                var headers: HTTPFields = [:]
                headers[HTTPField.Name("X-Forwarded-For")!] = "203.0.113.9, \(address)"
                return try await api.call(.post, "/sessions", json: ["name": "Niemand \(n)", "password": "guess"],
                                          headers: headers).status
            }
            for n in 0..<30 {
                let status = try await tryName(n, from: "10.0.0.5")
                #expect(status == .unauthorized)
            }
            #expect(try await tryName(30, from: "10.0.0.5") == .tooManyRequests)
            // Another pupil's laptop behind the same proxy is not held up.
            #expect(try await tryName(31, from: "10.0.0.6") == .unauthorized)
        }
    }

    /// A class signs in on one kiosk, one pupil after another: right tries
    /// are no failures of its address, so the 31st is not held up.
    @Test func aWholeClassSignsInOnOneKiosk() async throws {
        try await TestServer(.sqlite).run { api in
            let (_, berg) = try await api.teacher("Frau Berg")
            let klass = try await api.schoolClass("2b", teacher: berg, pupils: (1...35).map { "Kind \($0)" })
            #expect(klass.pupils.count == 35)
        }
    }

    /// Eve guesses Mia's pictures from laptops that are not Mia's, then
    /// from an address of the same IPv6 /64: she is stopped, and so is any
    /// stranger's laptop, but Mia signs in on the laptop she always uses.
    /// Nothing is written to the database per try.
    @Test(arguments: Backend.allCases)
    func aClassmatesWrongTriesElsewhereNeverLockAPupilOutOfHerUsualLaptop(_ backend: Backend) async throws {
        var server = TestServer(backend)
        server.configuration.trustedProxies = ["127.0.0.1"]
        try await server.run { api in
            let (_, berg) = try await api.teacher("Frau Berg")
            let mia = try await api.schoolClass("2b", teacher: berg, pupils: ["Mia"]).pupils["Mia"]!
            func pictures(_ pictures: [Int], from address: String) async throws -> HTTPResponse.Status {
                var headers: HTTPFields = [:]
                headers[HTTPField.Name("X-Forwarded-For")!] = address
                return try await api.call(.post, "/sign-in/pupil", json: ["pupilId": mia.id, "pictures": pictures],
                                          headers: headers).status
            }
            #expect(try await pictures([1, 2, 3], from: "10.0.0.7") == .created, "Mia's own laptop")
            let rowsBefore = try await api.database.query("SELECT COUNT(*) AS n FROM signInDevice").first?.int("n")
            for _ in 0..<5 { #expect(try await pictures([0, 0, 0], from: "2001:db8:5:6::1") == .unauthorized) }
            #expect(try await pictures([0, 0, 0], from: "2001:db8:5:6::ffff") == .tooManyRequests, "the same /64")
            for _ in 0..<5 { #expect(try await pictures([0, 0, 0], from: "10.0.0.66") == .unauthorized) }
            // Ten from strangers' devices: every other stranger waits, even
            // with the right pictures…
            #expect(try await pictures([1, 2, 3], from: "10.0.0.67") == .tooManyRequests)
            // …but not Mia on her laptop.
            #expect(try await pictures([1, 2, 3], from: "10.0.0.7") == .created)
            #expect(try await api.database.query("SELECT COUNT(*) AS n FROM signInDevice").first?.int("n") == rowsBefore)
        }
    }

    /// A school behind one NAT address: Ole guesses Mia's pictures on his
    /// laptop, which the server sees at the same address as Mia's. Each
    /// laptop sends its own mark, so his tries stop his laptop, not hers.
    @Test(arguments: Backend.allCases)
    func behindOneAddressEachLaptopIsCountedByItsOwnMark(_ backend: Backend) async throws {
        try await TestServer(backend).run { api in
            let (_, berg) = try await api.teacher("Frau Berg")
            let mia = try await api.schoolClass("2b", teacher: berg, pupils: ["Mia"]).pupils["Mia"]!
            let miasLaptop = TestAPI.device("mias-laptop-000000000000000"), olesLaptop = TestAPI.device("oles-laptop-000000000000000")
            func pictures(_ pictures: [Int], on laptop: HTTPFields) async throws -> HTTPResponse.Status {
                try await api.call(.post, "/sign-in/pupil", json: ["pupilId": mia.id, "pictures": pictures], headers: laptop).status
            }
            #expect(try await pictures([1, 2, 3], on: miasLaptop) == .created, "her laptop, once")
            for _ in 0..<5 { #expect(try await pictures([0, 0, 0], on: olesLaptop) == .unauthorized) }
            #expect(try await pictures([1, 2, 3], on: olesLaptop) == .tooManyRequests, "Ole's laptop is stopped")
            #expect(try await pictures([1, 2, 3], on: miasLaptop) == .created, "Mia's is not")
            // A mark made up for every try gets no more: the account's
            // limit for devices it never used holds.
            var statuses: [HTTPResponse.Status] = []
            for n in 0..<6 { statuses.append(try await pictures([0, 0, 0], on: TestAPI.device("made-up-\(n)-00000000000000000"))) }
            #expect(statuses.last == .tooManyRequests, "\(statuses)")
            #expect(try await pictures([1, 2, 3], on: miasLaptop) == .created)
        }
    }

    @Test func aForwardedAddressIsBelievedOnlyFromATrustedProxy() {
        let trusted: Set<String> = ["10.0.0.1", "10.0.0.2"]
        #expect(ClientAddress.resolve(peer: "10.0.0.1", forwardedFor: "192.0.2.7", trustedProxies: trusted) == "192.0.2.7")
        // What the client wrote in front is not what the proxy saw.
        #expect(ClientAddress.resolve(peer: "10.0.0.1", forwardedFor: "1.2.3.4, 192.0.2.7", trustedProxies: trusted) == "192.0.2.7")
        #expect(ClientAddress.resolve(peer: "10.0.0.1", forwardedFor: "192.0.2.7, 10.0.0.2", trustedProxies: trusted) == "192.0.2.7")
        #expect(ClientAddress.resolve(peer: "192.0.2.99", forwardedFor: "192.0.2.7", trustedProxies: trusted) == "192.0.2.99")
        #expect(ClientAddress.resolve(peer: "10.0.0.1", forwardedFor: "evil'); DROP", trustedProxies: trusted) == "10.0.0.1")
        #expect(ClientAddress.resolve(peer: "10.0.0.1", forwardedFor: String(repeating: "1", count: 2000),
                                      trustedProxies: trusted) == "10.0.0.1")
        #expect(ClientAddress.resolve(peer: "10.0.0.1", forwardedFor: "fe80::1", trustedProxies: trusted) == "fe80::1")
        #expect(ClientAddress.resolve(peer: "10.0.0.1", forwardedFor: nil, trustedProxies: trusted) == "10.0.0.1")
    }

    @Test(arguments: Backend.allCases)
    func failedSignInsAreThrottledPerAccountAndLiftedLater(_ backend: Backend) async throws {
        try await TestServer(backend).run { api in
            _ = try await api.teacher("Frau Berg")
            for _ in 0..<5 {
                let wrong = try await api.call(.post, "/sessions", json: ["name": "Frau Berg", "password": "guess"])
                #expect(wrong.status == .unauthorized)
            }
            // Even the right password waits now.
            let blocked = try await api.call(.post, "/sessions", json: ["name": "Frau Berg", "password": "correct horse"])
            #expect(blocked.status == .tooManyRequests)
            #expect(blocked.problemCode == "tooManyAttempts")
            let retry = try #require(blocked.headers[.retryAfter].flatMap(Int.init))
            #expect(retry > 0 && retry <= 15 * 60)
            api.clock.advance(seconds: Int64(retry))
            #expect(try await api.call(.post, "/sessions", json: ["name": "Frau Berg", "password": "correct horse"]).status == .created)
        }
    }

    /// Tries sent all at once must not each see "no failures yet": a burst
    /// gets no more password checks than tries one after another.
    @Test(arguments: Backend.allCases)
    func aBurstOfTriesAtOnceGetsNoMoreChecksThanThePolicyAllows(_ backend: Backend) async throws {
        try await TestServer(backend).run { api in
            _ = try await api.teacher("Frau Berg")
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for i in 0..<24 {
                    group.addTask {
                        try await api.call(.post, "/sessions", json: ["name": "Frau Berg", "password": "guess \(i)"]).status.code
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(statuses.filter { $0 == 401 }.count <= 5, "\(statuses.sorted())")
            #expect(statuses.filter { $0 == 429 }.count >= 19, "\(statuses.sorted())")
            #expect(try await api.call(.post, "/sessions", json: ["name": "Frau Berg", "password": "correct horse"]).status
                    == .tooManyRequests)
        }
    }

    @Test(arguments: Backend.allCases)
    func aRightPasswordForgetsTheAccountsEarlierFailures(_ backend: Backend) async throws {
        try await TestServer(backend).run { api in
            _ = try await api.teacher("Frau Berg")
            for _ in 0..<4 { _ = try await api.call(.post, "/sessions", json: ["name": "Frau Berg", "password": "guess"]) }
            #expect(try await api.call(.post, "/sessions", json: ["name": "Frau Berg", "password": "correct horse"]).status == .created)
            for _ in 0..<4 {
                #expect(try await api.call(.post, "/sessions", json: ["name": "Frau Berg", "password": "guess"]).status == .unauthorized)
            }
        }
    }

    @Test(arguments: Backend.allCases)
    func badRequestsGetAProblemNotAServerError(_ backend: Backend) async throws {
        try await TestServer(backend).run { api in
            let garbage = try await api.call(.post, "/sessions", raw: Array("{\"name\": ".utf8))
            #expect(garbage.status == .badRequest)
            #expect(garbage.problemCode == "badRequest")
            let wrongType = try await api.call(.post, "/sessions", json: ["name": 5, "password": true])
            #expect(wrongType.status == .badRequest)
            // A name nobody can have is a wrong name, answered like any other.
            let control = try await api.call(.post, "/sessions", json: ["name": "\u{202E}\u{0007}", "password": "x"])
            #expect(control.status == .unauthorized)
            // PostgreSQL stores no NUL in text; nothing of such a name reaches it.
            let nul = try await api.call(.post, "/sessions", json: ["name": "\u{0000}Anna\u{0000}", "password": "x"])
            #expect(nul.status == .unauthorized)
            let longName = try await api.call(.post, "/classes", token: try await api.teacher("Herr Lang").token,
                                              json: ["name": String(repeating: "🦊", count: 100)])
            #expect(longName.status == .badRequest, "a long name is refused, not cut")
            let blankClass = try await api.call(.post, "/classes", token: try await api.teacher("Frau Berg").token,
                                                json: ["name": "\u{001E}"])
            #expect(blankClass.status == .badRequest)
            let huge = try await api.call(.post, "/sessions", raw: Array(repeating: UInt8(ascii: " "), count: 9 << 20))
            #expect(huge.status == .contentTooLarge)
            #expect(huge.problemCode == "tooLarge")
            let nowhere = try await api.call(.get, "/nowhere")
            #expect(nowhere.status == .notFound)
            #expect(nowhere.problemCode == "notFound")
            let wrongMethod = try await api.call(.patch, "/classes")
            #expect(wrongMethod.status == .methodNotAllowed)
            #expect(wrongMethod.headers[.allow] == "GET, POST")
            let wrongMethodWithID = try await api.call(.delete, "/classes/\(UUID().uuidString)/pupils")
            #expect(wrongMethodWithID.status == .methodNotAllowed)
        }
    }
}
