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
            // Without pictures she is not offered yet (on the class's kiosk).
            try await api.signIn("Frau Berg", on: TestAPI.kiosk)
            let classes = try await api.call(.get, "/sign-in/classes", headers: TestAPI.kiosk)
            #expect(classes.status == .ok)
            #expect(classes.array.map { $0["id"] as? String } == [classID])
            #expect(try await api.call(.get, "/sign-in/classes/\(classID)/pupils", headers: TestAPI.kiosk).array.isEmpty)

            #expect(try await api.call(.put, "/pupils/\(mia)/picture-password", token: kurz,
                                       json: ["pictures": [1, 2, 3]]).status == .forbidden)
            #expect(try await api.call(.put, "/pupils/\(mia)/picture-password", token: berg,
                                       json: ["pictures": [1, 2, 9]]).status == .badRequest)
            #expect(try await api.call(.put, "/pupils/\(mia)/picture-password", token: berg,
                                       json: ["pictures": [4, 0, 4]]).status == .noContent)
            let offered = try await api.call(.get, "/sign-in/classes/\(classID)/pupils", headers: TestAPI.kiosk)
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
    func onlyTheClassesTeacherRenamesIt(_ backend: Backend) async throws {
        try await TestServer(backend).run { api in
            let (_, berg) = try await api.teacher("Frau Berg")
            let (_, kurz) = try await api.teacher("Herr Kurz")
            let twoB = try await api.schoolClass("2b", teacher: berg, pupils: ["Mia"])
            let renamed = try await api.call(.put, "/classes/\(twoB.id)/name", token: berg, json: ["name": "  3b "])
            #expect(renamed.status == .ok)
            #expect(renamed.object["name"] as? String == "3b")
            #expect(renamed.object["pupilCount"] as? Int == 1)
            #expect(renamed.object["archived"] as? Bool == false)
            #expect(try await api.call(.get, "/classes", token: berg).array.map { $0["name"] as? String } == ["3b"])
            try await api.signIn("Frau Berg", on: TestAPI.kiosk)
            #expect(try await api.call(.get, "/sign-in/classes", headers: TestAPI.kiosk).array.map { $0["name"] as? String } == ["3b"])

            #expect(try await api.call(.put, "/classes/\(twoB.id)/name", token: kurz, json: ["name": "Meins"]).status == .forbidden)
            #expect(try await api.call(.put, "/classes/\(twoB.id)/name", token: twoB.pupils["Mia"]!.token,
                                       json: ["name": "Meins"]).status == .forbidden)
            #expect(try await api.call(.put, "/classes/\(twoB.id)/name", json: ["name": "Meins"]).status == .unauthorized)
            #expect(try await api.call(.put, "/classes/\(UUID().uuidString)/name", token: berg, json: ["name": "x"]).status == .notFound)
            // A name with nothing visible, none, null or too long is refused.
            #expect(try await api.call(.put, "/classes/\(twoB.id)/name", token: berg, json: ["name": " \u{200E} "]).status == .badRequest)
            #expect(try await api.call(.put, "/classes/\(twoB.id)/name", token: berg, json: [String: Any]()).status == .badRequest)
            #expect(try await api.call(.put, "/classes/\(twoB.id)/name", token: berg, json: ["name": NSNull()]).status == .badRequest)
            #expect(try await api.call(.put, "/classes/\(twoB.id)/archived", token: berg, json: ["archived": NSNull()]).status
                    == .badRequest)
            #expect(try await api.call(.put, "/classes/\(twoB.id)/name", token: berg,
                                       json: ["name": String(repeating: "x", count: 65)]).status == .badRequest)
            #expect(try await api.call(.get, "/classes", token: berg).array.map { $0["name"] as? String } == ["3b"])
        }
    }

    @Test(arguments: Backend.allCases)
    func anArchivedClassIsHiddenFromPupilsAndRestoredAsItWas(_ backend: Backend) async throws {
        try await TestServer(backend).run { api in
            let (_, berg) = try await api.teacher("Frau Berg")
            let (_, kurz) = try await api.teacher("Herr Kurz")
            let twoB = try await api.schoolClass("2b", teacher: berg, pupils: ["Mia"])
            let oneA = try await api.schoolClass("1a", teacher: berg, pupils: [])
            let mia = twoB.pupils["Mia"]!
            let sketch = UUID()
            #expect(try await api.push([Changes.create(sketch), Changes.stroke(sketch)], token: mia.token).accepted.count == 2)
            try await api.signIn("Frau Berg", on: TestAPI.kiosk)

            #expect(try await api.call(.put, "/classes/\(twoB.id)/archived", token: kurz, json: ["archived": true]).status == .forbidden)
            #expect(try await api.call(.put, "/classes/\(twoB.id)/archived", token: mia.token, json: ["archived": true]).status == .forbidden)
            let archived = try await api.call(.put, "/classes/\(twoB.id)/archived", token: berg, json: ["archived": true])
            #expect(archived.status == .ok)
            #expect(archived.object["archived"] as? Bool == true)

            // Gone for the pupils: not offered, no sign-in, the old token stops.
            #expect(try await api.call(.get, "/sign-in/classes", headers: TestAPI.kiosk).array.map { $0["id"] as? String } == [oneA.id])
            #expect(try await api.call(.get, "/sign-in/classes/\(twoB.id)/pupils", headers: TestAPI.kiosk).status == .notFound)
            #expect(try await api.call(.post, "/sign-in/pupil", json: ["pupilId": mia.id, "pictures": [1, 2, 3]]).status
                    == .unauthorized)
            #expect(try await api.call(.get, "/me", token: mia.token).status == .unauthorized)

            // The teacher lists it only when asking, and still sees its pupils and work.
            #expect(try await api.call(.get, "/classes", token: berg).array.map { $0["id"] as? String } == [oneA.id])
            let all = try await api.call(.get, "/classes?archived=true", token: berg).array
            #expect(Set(all.map { $0["id"] as? String }) == [oneA.id, twoB.id])
            #expect(all.first { $0["id"] as? String == twoB.id }?["archived"] as? Bool == true)
            #expect(try await api.call(.get, "/classes/\(twoB.id)/pupils", token: berg).array.count == 1)
            let sketches = try await api.call(.get, "/sketches", token: berg).array
            #expect(sketches.map { $0["id"] as? String } == [sketch.uuidString.lowercased()])
            #expect(try await api.call(.get, "/classes?archived=true", token: kurz).array.isEmpty)

            // Restored: everything as it was, the token works again.
            let restored = try await api.call(.put, "/classes/\(twoB.id)/archived", token: berg, json: ["archived": false])
            #expect(restored.object["archived"] as? Bool == false)
            #expect(Set(try await api.call(.get, "/sign-in/classes", headers: TestAPI.kiosk).array.map { $0["id"] as? String })
                    == [oneA.id, twoB.id])
            #expect(try await api.call(.get, "/me", token: mia.token).status == .ok)
            #expect(try await api.call(.post, "/sign-in/pupil", json: ["pupilId": mia.id, "pictures": [1, 2, 3]]).status
                    == .created)
            #expect(try await api.call(.get, "/classes", token: berg).array.count == 2)
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
