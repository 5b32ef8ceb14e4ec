import Foundation
import HTTPTypes
import Testing
@testable import SchoolServer

@Suite struct ClassTests {
    @Test(arguments: Backend.allCases)
    func aTeacherMakesAClassAddsPupilsAndSeesOnlyTheirOwn(_ backend: Backend) async throws {
        try await TestServer(backend).run { api in
            let (_, berg) = try await api.teacher("Frau Berg")
            let (_, kurz) = try await api.teacher("Herr Kurz")
            let made = try await api.call(.post, "/classes", token: berg, json: ["name": "2b"])
            #expect(made.status == .created)
            let classID = try #require(made.object["id"] as? String)
            #expect(try await api.call(.post, "/classes/\(classID)/pupils", token: berg, json: ["name": "Mia"]).status == .created)
            #expect(try await api.call(.post, "/classes/\(classID)/pupils", token: berg, json: ["name": "Ben"]).status == .created)
            let twice = try await api.call(.post, "/classes/\(classID)/pupils", token: berg, json: ["name": "mia"])
            #expect(twice.status == .conflict)

            let mine = try await api.call(.get, "/classes", token: berg)
            #expect(mine.array.map { $0["name"] as? String } == ["2b"])
            #expect(mine.array.first?["pupilCount"] as? Int == 2)
            let pupils = try await api.call(.get, "/classes/\(classID)/pupils", token: berg)
            #expect(pupils.array.map { $0["name"] as? String } == ["Ben", "Mia"])

            // Another teacher sees nothing of it and may change nothing.
            #expect(try await api.call(.get, "/classes", token: kurz).array.isEmpty)
            #expect(try await api.call(.get, "/classes/\(classID)/pupils", token: kurz).status == .forbidden)
            #expect(try await api.call(.post, "/classes/\(classID)/pupils", token: kurz, json: ["name": "Eve"]).status == .forbidden)
            #expect(try await api.call(.get, "/classes/\(UUID().uuidString)/pupils", token: berg).status == .notFound)
            #expect(try await api.call(.get, "/classes/not-an-id/pupils", token: berg).status == .badRequest)
        }
    }

    @Test(arguments: Backend.allCases)
    func aPupilSignsInWithThreePicturesTheTeacherSet(_ backend: Backend) async throws {
        try await TestServer(backend).run { api in
            let (_, berg) = try await api.teacher("Frau Berg")
            let (_, kurz) = try await api.teacher("Herr Kurz")
            let classID = try #require(try await api.call(.post, "/classes", token: berg, json: ["name": "2b"]).object["id"] as? String)
            let mia = try #require(try await api.call(.post, "/classes/\(classID)/pupils", token: berg,
                                                      json: ["name": "Mia"]).object["id"] as? String)
            // Without pictures she is not offered yet.
            let classes = try await api.call(.get, "/sign-in/classes")
            #expect(classes.status == .ok)
            #expect(classes.array.map { $0["id"] as? String } == [classID])
            #expect(try await api.call(.get, "/sign-in/classes/\(classID)/pupils").array.isEmpty)

            #expect(try await api.call(.put, "/pupils/\(mia)/picture-password", token: kurz,
                                       json: ["pictures": [1, 2, 3]]).status == .forbidden)
            #expect(try await api.call(.put, "/pupils/\(mia)/picture-password", token: berg,
                                       json: ["pictures": [1, 2, 9]]).status == .badRequest)
            #expect(try await api.call(.put, "/pupils/\(mia)/picture-password", token: berg,
                                       json: ["pictures": [4, 0, 4]]).status == .noContent)
            let offered = try await api.call(.get, "/sign-in/classes/\(classID)/pupils")
            #expect(offered.array.map { $0["name"] as? String } == ["Mia"])

            #expect(try await api.call(.post, "/sign-in/pupil", json: ["pupilId": mia, "pictures": [4, 4, 0]]).status == .unauthorized)
            let signedIn = try await api.call(.post, "/sign-in/pupil", json: ["pupilId": mia, "pictures": [4, 0, 4]])
            #expect(signedIn.status == .created)
            let token = try #require(signedIn.object["token"] as? String)
            let me = try await api.call(.get, "/me", token: token)
            #expect(me.object["role"] as? String == "pupil")
            #expect(me.object["classId"] as? String == classID)
            // A pupil sees their own class and may not make classes.
            #expect(try await api.call(.get, "/classes", token: token).array.map { $0["id"] as? String } == [classID])
            #expect(try await api.call(.post, "/classes", token: token, json: ["name": "x"]).status == .forbidden)
            #expect(try await api.call(.get, "/classes/\(classID)/pupils", token: token).status == .forbidden)

            // A new picture password signs the pupil out everywhere.
            #expect(try await api.call(.put, "/pupils/\(mia)/picture-password", token: berg,
                                       json: ["pictures": [8, 7, 6]]).status == .noContent)
            #expect(try await api.call(.get, "/me", token: token).status == .unauthorized)
        }
    }

    @Test(arguments: Backend.allCases)
    func aTeacherMayHaveBoundedClassesAndAClassBoundedPupils(_ backend: Backend) async throws {
        try await TestServer(backend).run { api in
            let (_, berg) = try await api.teacher("Frau Berg")
            var classID = ""
            for i in 0..<AccountStore.maxClassesPerTeacher {
                let made = try await api.call(.post, "/classes", token: berg, json: ["name": "Klasse \(i)"])
                #expect(made.status == .created)
                classID = made.object["id"] as? String ?? classID
            }
            let tooMany = try await api.call(.post, "/classes", token: berg, json: ["name": "Noch eine"])
            #expect(tooMany.status == .conflict)
            #expect(try await api.call(.get, "/classes", token: berg).array.count == AccountStore.maxClassesPerTeacher)
            for i in 0..<AccountStore.maxPupilsPerClass {
                #expect(try await api.call(.post, "/classes/\(classID)/pupils", token: berg, json: ["name": "Kind \(i)"]).status
                        == .created)
            }
            let full = try await api.call(.post, "/classes/\(classID)/pupils", token: berg, json: ["name": "Noch eins"])
            #expect(full.status == .conflict)
            #expect(full.object["message"] as? String != nil)
        }
    }

    @Test(arguments: Backend.allCases)
    func aPupilMayNotSetPictures(_ backend: Backend) async throws {
        try await TestServer(backend).run { api in
            let (_, berg) = try await api.teacher("Frau Berg")
            let classID = try #require(try await api.call(.post, "/classes", token: berg, json: ["name": "2b"]).object["id"] as? String)
            let mia = try #require(try await api.call(.post, "/classes/\(classID)/pupils", token: berg,
                                                      json: ["name": "Mia"]).object["id"] as? String)
            _ = try await api.call(.put, "/pupils/\(mia)/picture-password", token: berg, json: ["pictures": [1, 2, 3]])
            let token = try #require(try await api.call(.post, "/sign-in/pupil",
                                                        json: ["pupilId": mia, "pictures": [1, 2, 3]]).object["token"] as? String)
            #expect(try await api.call(.put, "/pupils/\(mia)/picture-password", token: token,
                                       json: ["pictures": [0, 0, 0]]).status == .forbidden)
        }
    }

    @Test(arguments: Backend.allCases)
    func guessingPicturesIsThrottled(_ backend: Backend) async throws {
        try await TestServer(backend).run { api in
            let (_, berg) = try await api.teacher("Frau Berg")
            let classID = try #require(try await api.call(.post, "/classes", token: berg, json: ["name": "2b"]).object["id"] as? String)
            let mia = try #require(try await api.call(.post, "/classes/\(classID)/pupils", token: berg,
                                                      json: ["name": "Mia"]).object["id"] as? String)
            _ = try await api.call(.put, "/pupils/\(mia)/picture-password", token: berg, json: ["pictures": [4, 0, 4]])
            var statuses: [Int] = []
            for guess in 0..<6 {
                statuses.append(try await api.call(.post, "/sign-in/pupil",
                                                   json: ["pupilId": mia, "pictures": [guess, 1, 1]]).status.code)
            }
            #expect(statuses == [401, 401, 401, 401, 401, 429])
        }
    }
}
