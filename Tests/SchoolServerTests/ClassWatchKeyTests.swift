import Foundation
import HTTPTypes
import Testing
@testable import SchoolServer

/// A class's key for its wall (`ClassWatchKey`) reaches the class's teacher
/// and its pupils' laptops, and nobody else: with it a watcher is let into
/// the class's groups without asking.
@Suite struct ClassWatchKeyTests {
    @Test(arguments: Backend.allCases)
    func theKeyGoesToTheClassesTeacherAndPupilsOnly(_ backend: Backend) async throws {
        try await TestServer(backend).run { api in
            let (_, berg) = try await api.teacher("Frau Berg")
            let (_, kurz) = try await api.teacher("Herr Kurz")
            let made = try await api.call(.post, "/classes", token: berg, json: ["name": "2b"])
            let twoB = try #require(made.object["id"] as? String)
            let key = try #require(made.object["watchKey"] as? String)
            #expect(ClassWatchKey(hex: key) != nil)
            // The teacher's list gives the same key again; another class has its own.
            #expect(try await api.call(.get, "/classes", token: berg).array.first?["watchKey"] as? String == key)
            _ = try await api.call(.post, "/classes", token: kurz, json: ["name": "3a"])
            let other = try await api.call(.get, "/classes", token: kurz).array
            #expect(other.count == 1 && other.first?["watchKey"] as? String != key)
            #expect(!other.contains { $0["id"] as? String == twoB })

            // Mia's laptop gets it when she signs in, and her list has it.
            let mia = try #require(try await api.call(.post, "/classes/\(twoB)/pupils", token: berg,
                                                      json: ["name": "Mia"]).object["id"] as? String)
            #expect(try await api.call(.put, "/pupils/\(mia)/picture-password", token: berg,
                                       json: ["pictures": [1, 2, 3]]).status == .noContent)
            let signedIn = try await api.call(.post, "/sign-in/pupil", json: ["pupilId": mia, "pictures": [1, 2, 3]])
            #expect(signedIn.object["classWatchKey"] as? String == key)
            let token = try #require(signedIn.object["token"] as? String)
            #expect(try await api.call(.get, "/classes", token: token).array.first?["watchKey"] as? String == key)

            // A teacher's sign-in names no class's key, and another teacher
            // renaming the class is refused without one.
            let teacher = try await api.call(.post, "/sessions", json: ["name": "Frau Berg", "password": "correct horse"])
            #expect(teacher.status == .created && teacher.object["classWatchKey"] == nil)
            let foreign = try await api.call(.put, "/classes/\(twoB)/name", token: kurz, json: ["name": "mine"])
            #expect(foreign.status == .forbidden && foreign.object["watchKey"] == nil)
            // A pupil of another class gets their own class's key, not this one.
            let threeA = try #require(other.first?["id"] as? String)
            let eve = try #require(try await api.call(.post, "/classes/\(threeA)/pupils", token: kurz,
                                                      json: ["name": "Eve"]).object["id"] as? String)
            _ = try await api.call(.put, "/pupils/\(eve)/picture-password", token: kurz, json: ["pictures": [3, 2, 1]])
            let eveIn = try await api.call(.post, "/sign-in/pupil", json: ["pupilId": eve, "pictures": [3, 2, 1]])
            #expect(eveIn.object["classWatchKey"] as? String == other.first?["watchKey"] as? String)
            let eveToken = try #require(eveIn.object["token"] as? String)
            #expect(try await api.call(.get, "/classes", token: eveToken).array.map { $0["watchKey"] as? String }
                == [other.first?["watchKey"] as? String])
        }
    }

    /// A class an older server process made while this one upgraded the
    /// database has no key: it gets one when it is first read, and keeps it.
    @Test(arguments: Backend.allCases)
    func aClassWithoutAKeyGetsOneWhenRead(_ backend: Backend) async throws {
        try await TestServer(backend).run { api in
            let (_, berg) = try await api.teacher("Frau Berg")
            let twoB = try #require(try await api.call(.post, "/classes", token: berg, json: ["name": "2b"]).object["id"] as? String)
            _ = try await api.database.execute("UPDATE schoolClass SET watchKey = NULL WHERE id = ?", [.text(twoB)])
            let first = try await api.call(.get, "/classes", token: berg).array.first?["watchKey"] as? String
            #expect(first.flatMap(ClassWatchKey.init(hex:)) != nil)
            #expect(try await api.call(.get, "/classes", token: berg).array.first?["watchKey"] as? String == first)
        }
    }
}
