import Foundation
import HTTPTypes
import LearnModel
import Testing
import ZIPFoundation
@testable import SchoolServer

/// People who change over a school year: teacher accounts the admin makes,
/// passwords, pupils renamed, moved and removed for good.
@Suite struct PeopleTests {
    @Test(arguments: Backend.allCases)
    func theFirstTeacherIsTheAdminAndMakesTeachersWhoCanSignIn(_ backend: Backend) async throws {
        try await TestServer(backend).run { api in
            let (_, berg) = try await api.teacher("Frau Berg")
            let (_, kurz) = try await api.teacher("Herr Kurz")
            #expect(try await api.call(.get, "/me", token: berg).object["admin"] as? Bool == true)
            #expect(try await api.call(.get, "/me", token: kurz).object["admin"] == nil)

            let made = try await api.call(.post, "/teachers", token: berg, json: ["name": "Frau Neu", "password": "tafel und kreide"])
            #expect(made.status == .created)
            #expect(made.object["admin"] as? Bool == false)
            let signedIn = try await api.call(.post, "/sessions", json: ["name": "frau neu", "password": "tafel und kreide"])
            #expect(signedIn.status == .created)
            let neu = try #require(signedIn.object["token"] as? String)
            #expect((signedIn.object["account"] as? [String: Any])?["admin"] == nil)

            let listed = try await api.call(.get, "/teachers", token: berg).array
            #expect(listed.map { $0["name"] as? String } == ["Frau Berg", "Frau Neu", "Herr Kurz"])
            #expect(listed.map { $0["admin"] as? Bool } == [true, false, false])

            // A name taken (any case), a password bcrypt would cut or too short.
            #expect(try await api.call(.post, "/teachers", token: berg, json: ["name": "HERR KURZ", "password": "tafel und kreide"])
                .status == .conflict)
            #expect(try await api.call(.post, "/teachers", token: berg, json: ["name": "Herr Lang", "password": String(repeating: "ä", count: 73)])
                .status == .badRequest)
            // 72 umlauts are 144 bytes, twice what bcrypt reads: every one counts.
            let umlauts = String(repeating: "ä", count: 71)
            #expect(try await api.call(.post, "/teachers", token: berg, json: ["name": "Frau Umlaut", "password": umlauts + "ö"])
                .status == .created)
            #expect(try await api.call(.post, "/sessions", json: ["name": "Frau Umlaut", "password": umlauts + "ö"]).status == .created)
            #expect(try await api.call(.post, "/sessions", json: ["name": "Frau Umlaut", "password": umlauts + "ü"]).status == .unauthorized)
            #expect(try await api.call(.post, "/teachers", token: berg, json: ["name": "Herr Kurz2", "password": "kurz"])
                .status == .badRequest)
            // Nobody else makes or lists teachers.
            for token in [kurz, neu] {
                #expect(try await api.call(.get, "/teachers", token: token).status == .forbidden)
                #expect(try await api.call(.post, "/teachers", token: token, json: ["name": "Herr Falsch", "password": "tafel und kreide"])
                    .status == .forbidden)
            }
            #expect(try await api.call(.post, "/sessions", json: ["name": "Herr Falsch", "password": "tafel und kreide"])
                .status == .unauthorized)
        }
    }

    /// Passwords set before long ones were taken went to bcrypt as they
    /// were, and still do, so their hashes check as before.
    @Test func aPasswordThatFitsBcryptIsHashedAsItIs() {
        #expect(PasswordHasher.bcryptInput("correct horse") == "correct horse")
        let fits = String(repeating: "a", count: 72)
        #expect(PasswordHasher.bcryptInput(fits) == fits)
        let long = String(repeating: "ä", count: 72)
        #expect(PasswordHasher.bcryptInput(long).hasPrefix("sha256:") && PasswordHasher.bcryptInput(long).utf8.count == 71)
        #expect(PasswordHasher.bcryptInput(long) != PasswordHasher.bcryptInput(String(repeating: "ä", count: 71) + "ö"))
    }

    @Test(arguments: Backend.allCases)
    func theAdminMakesNoMoreTeachersThanASchoolHas(_ backend: Backend) async throws {
        try await TestServer(backend).run { api in
            let (_, berg) = try await api.teacher("Frau Berg")
            let rows = (1..<(AccountStore.maxTeachers - 1)).map { n in
                "('\(UUID().key)', 'teacher', 'T\(n)', 't\(n)', 'x', 1, 0)"
            }
            try await api.database.execute("""
                INSERT INTO account (id, role, name, nameKey, passwordHash, createdAt, admin) VALUES \(rows.joined(separator: ", "))
                """)
            let last = try await api.call(.post, "/teachers", token: berg, json: ["name": "Die Letzte", "password": "tafel und kreide"])
            #expect(last.status == .created)
            let beyond = try await api.call(.post, "/teachers", token: berg, json: ["name": "Einer Mehr", "password": "tafel und kreide"])
            #expect(beyond.status == .conflict)
            #expect(beyond.object["message"] as? String == "a school may have at most \(AccountStore.maxTeachers) teachers")
        }
    }

    @Test(arguments: Backend.allCases)
    func aTeacherChangesTheirPasswordAndTheirOtherSignInsEnd(_ backend: Backend) async throws {
        try await TestServer(backend).run { api in
            _ = try await api.teacher("Frau Berg")
            let (_, kurz) = try await api.teacher("Herr Kurz")
            let otherLaptop = try await signIn(api, "Herr Kurz", "correct horse")

            let wrong = try await api.call(.put, "/me/password", token: kurz,
                                           json: ["currentPassword": "falsches pferd", "newPassword": "neues passwort"])
            #expect(wrong.status == .forbidden)
            #expect(try await api.call(.get, "/me", token: kurz).status == .ok, "a wrong try signs nobody out")
            #expect(try await api.call(.put, "/me/password", token: kurz, json: ["currentPassword": "correct horse", "newPassword": "kurz"])
                .status == .badRequest)

            #expect(try await api.call(.put, "/me/password", token: kurz,
                                       json: ["currentPassword": "correct horse", "newPassword": "neues passwort"]).status == .noContent)
            #expect(try await api.call(.get, "/me", token: kurz).status == .ok)
            #expect(try await api.call(.get, "/me", token: otherLaptop).status == .unauthorized)
            #expect(try await api.call(.post, "/sessions", json: ["name": "Herr Kurz", "password": "correct horse"]).status == .unauthorized)
            #expect(try await api.call(.post, "/sessions", json: ["name": "Herr Kurz", "password": "neues passwort"]).status == .created)
        }
    }

    @Test(arguments: Backend.allCases)
    func theAdminGivesATeacherWhoForgotTheirPasswordANewOne(_ backend: Backend) async throws {
        try await TestServer(backend).run { api in
            let (_, berg) = try await api.teacher("Frau Berg")
            let (kurzID, kurz) = try await api.teacher("Herr Kurz")
            #expect(try await api.call(.put, "/teachers/\(kurzID)/password", token: kurz, json: ["password": "selbst gemacht"])
                .status == .forbidden)
            #expect(try await api.call(.put, "/teachers/\(UUID().uuidString)/password", token: berg, json: ["password": "neues passwort"])
                .status == .notFound)
            #expect(try await api.call(.put, "/teachers/\(kurzID)/password", token: berg, json: ["password": "neues passwort"])
                .status == .noContent)
            #expect(try await api.call(.get, "/me", token: kurz).status == .unauthorized)
            #expect(try await api.call(.post, "/sessions", json: ["name": "Herr Kurz", "password": "neues passwort"]).status == .created)
            #expect(try await api.call(.get, "/me", token: berg).status == .ok)
        }
    }

    @Test(arguments: Backend.allCases)
    func aPupilIsRenamedUnlessAClassmateHasTheName(_ backend: Backend) async throws {
        try await TestServer(backend).run { api in
            let (_, berg) = try await api.teacher("Frau Berg")
            let (_, kurz) = try await api.teacher("Herr Kurz")
            let twoB = try await api.schoolClass("2b", teacher: berg, pupils: ["Mia", "Ben"])
            let mia = twoB.pupils["Mia"]!
            let renamed = try await api.call(.put, "/pupils/\(mia.id)/name", token: berg, json: ["name": "Mia S."])
            #expect(renamed.status == .ok)
            #expect(renamed.object["name"] as? String == "Mia S.")
            #expect(try await api.call(.put, "/pupils/\(mia.id)/name", token: berg, json: ["name": "ben"]).status == .conflict)
            #expect(try await api.call(.put, "/pupils/\(mia.id)/name", token: kurz, json: ["name": "Eve"]).status == .forbidden)
            #expect(try await api.call(.put, "/pupils/\(mia.id)/name", token: berg, json: ["name": " "]).status == .badRequest)
            let names = try await api.call(.get, "/classes/\(twoB.id)/pupils", token: berg).array.map { $0["name"] as? String }
            #expect(names == ["Ben", "Mia S."])
            // Her sign-in goes on, and she signs in again under her new name.
            #expect(try await api.call(.get, "/me", token: mia.token).object["name"] as? String == "Mia S.")
        }
    }

    @Test(arguments: Backend.allCases)
    func aPupilMovesToAnotherOfTheTeachersClassesWithTheirWork(_ backend: Backend) async throws {
        try await TestServer(backend).run { api in
            let (_, berg) = try await api.teacher("Frau Berg")
            let (_, kurz) = try await api.teacher("Herr Kurz")
            let twoB = try await api.schoolClass("2b", teacher: berg, pupils: ["Mia", "Ben"])
            let twoC = try await api.schoolClass("2c", teacher: berg, pupils: ["Lea", "Ben"])
            let kurzClass = try await api.schoolClass("3a", teacher: kurz, pupils: ["Eve"])
            let mia = twoB.pupils["Mia"]!
            let sketch = UUID()
            let profile = Changes.record("profile", mia.id, ProfileRecord(name: "Mia", at: 1))
            #expect(try await api.push([Changes.create(sketch), Changes.stroke(sketch), profile], token: mia.token).rejected.isEmpty)
            // Lea's laptop has pulled everything so far.
            let leaBefore = try await api.pullAll(token: twoC.pupils["Lea"]!.token)
            #expect(!leaBefore.contains { $0["entityId"] as? String == mia.id })

            // Not into another teacher's class, nor by another teacher, nor
            // where a pupil has the name, nor into an archived class.
            #expect(try await api.call(.put, "/pupils/\(mia.id)/class", token: berg, json: ["classId": kurzClass.id]).status == .forbidden)
            #expect(try await api.call(.put, "/pupils/\(mia.id)/class", token: kurz, json: ["classId": kurzClass.id]).status == .forbidden)
            let ben = twoB.pupils["Ben"]!
            #expect(try await api.call(.put, "/pupils/\(ben.id)/class", token: berg, json: ["classId": twoC.id]).status == .conflict)
            let archived = try await api.schoolClass("1a", teacher: berg, pupils: [])
            _ = try await api.call(.put, "/classes/\(archived.id)/archived", token: berg, json: ["archived": true])
            #expect(try await api.call(.put, "/pupils/\(mia.id)/class", token: berg, json: ["classId": archived.id]).status == .conflict)
            #expect(try await api.call(.get, "/me", token: mia.token).status == .ok, "nothing moved her yet")

            let moved = try await api.call(.put, "/pupils/\(mia.id)/class", token: berg, json: ["classId": twoC.id])
            #expect(moved.status == .ok)
            #expect(moved.object["classId"] as? String == twoC.id)
            #expect(try await api.call(.get, "/classes/\(twoB.id)/pupils", token: berg).array.map { $0["name"] as? String } == ["Ben"])
            #expect(try await api.call(.get, "/classes/\(twoC.id)/pupils", token: berg).array.map { $0["name"] as? String }
                    == ["Ben", "Lea", "Mia"])
            // Her old sign-in ends; she signs in again, into 2c, with her work.
            #expect(try await api.call(.get, "/me", token: mia.token).status == .unauthorized)
            let again = try await api.call(.post, "/sign-in/pupil", json: ["pupilId": mia.id, "pictures": [1, 2, 3]])
            let token = try #require(again.object["token"] as? String)
            #expect((again.object["account"] as? [String: Any])?["classId"] as? String == twoC.id)
            #expect(try await api.call(.get, "/sketches", token: token).array.map { $0["id"] as? String } == [sketch.key])
            #expect(try await api.call(.get, "/sketches", token: berg).array.contains { $0["id"] as? String == sketch.key })
            // Her new classmates' laptops get her profile though they pulled past it.
            let leaAfter = try await api.pullAll(token: twoC.pupils["Lea"]!.token)
            #expect(leaAfter.contains { $0["entity"] as? String == "profile" && $0["entityId"] as? String == mia.id })
            // Her old classmates' do not get it again.
            let benChanges = try await api.pullAll(token: ben.token)
            #expect(benChanges.filter { $0["entity"] as? String == "profile" && $0["entityId"] as? String == mia.id }.count == 1)
        }
    }

    /// What a family asking for their child's data gets: her records and
    /// pictures, none of a classmate's records, and only from her teacher.
    @Test(arguments: Backend.allCases)
    func herTeacherExportsEverythingOfAPupilAsRecordsAndPictures(_ backend: Backend) async throws {
        try await TestServer(backend).run { api in
            let (_, berg) = try await api.teacher("Frau Berg")
            let (_, kurz) = try await api.teacher("Herr Kurz")
            let twoB = try await api.schoolClass("2b", teacher: berg, pupils: ["Mia", "Ben"])
            let mia = twoB.pupils["Mia"]!, ben = twoB.pupils["Ben"]!
            let own = UUID(), gone = UUID()
            #expect(try await api.push([Changes.create(own, name: "Mias Haus/../x"), Changes.stroke(own),
                                        Changes.create(gone, name: "Weg"), Changes.stroke(gone),
                                        Changes.round(player: mia.id, name: "Mia")], token: mia.token).rejected.isEmpty)
            #expect(try await api.push([Changes.sketchChange(gone, .delete(at: 2))], token: mia.token).rejected.isEmpty)
            let grade = GradeRecord(target: .sketch, targetId: GradedWorkID(own), pupilId: AccountID(mia.id), pupilName: "Mia", grade: 1,
                                    comment: "Schön", at: 1)
            #expect(try await api.push([Changes.grade(grade)], token: berg).rejected.isEmpty)
            // A team sketch of theirs, graded for the team.
            let (team, teamCreate) = Changes.hosted(by: ben.id, name: "Zoo")
            let members = [Changes.member(mia.id, of: team), Changes.member(ben.id, of: team)]
            #expect(try await api.push([teamCreate] + members + [Changes.stroke(team, author: "Ben")], token: ben.token)
                .rejected.isEmpty)
            let teamGrade = GradeRecord(target: .sketch, targetId: GradedWorkID(team), pupilId: nil, pupilName: nil, grade: 2,
                                        comment: "Gut zusammen", at: 1)
            #expect(try await api.push([Changes.grade(teamGrade)], token: berg).rejected.isEmpty)
            // Ben's own sketch and a round of his that Mia's laptop filed.
            let bens = UUID()
            #expect(try await api.push([Changes.create(bens, name: "Bens Boot"), Changes.stroke(bens, author: "Ben")],
                                       token: ben.token).rejected.isEmpty)
            #expect(try await api.push([Changes.round(player: ben.id, name: "Ben")], token: mia.token).rejected.isEmpty)

            #expect(try await api.call(.get, "/pupils/\(mia.id)/export", token: kurz).status == .forbidden)
            #expect(try await api.call(.get, "/pupils/\(mia.id)/export", token: mia.token).status == .forbidden)
            let answer = try await api.call(.get, "/pupils/\(mia.id)/export", token: berg)
            #expect(answer.status == .ok)
            #expect(answer.headers[.contentType] == "application/zip")
            let archive = try Archive(data: Data(answer.body), accessMode: .read)
            func read(_ path: String) throws -> Data {
                guard let entry = archive[path] else { throw TestSetupProblem("no \(path) in \(archive.map(\.path))") }
                var data = Data()
                _ = try archive.extract(entry) { data.append($0) }
                return data
            }
            let pupil = try #require(try JSONSerialization.jsonObject(with: read("pupil.json")) as? [String: Any])
            #expect(pupil["name"] as? String == "Mia")
            #expect((pupil["class"] as? [String: Any])?["name"] as? String == "2b")
            let changes = try #require(try JSONSerialization.jsonObject(with: read("changes.json")) as? [[String: Any]])
            let kinds = changes.compactMap { $0["entity"] as? String }
            #expect(kinds.filter { $0 == "sketchOp" }.count == 2)
            #expect(kinds.filter { $0 == "wordPostRoundStat" }.count == 1, "her round, not Ben's")
            let comments = changes.filter { $0["entity"] as? String == "grade" }
                .compactMap { ($0["payload"] as? [String: Any])?["comment"] as? String }
            #expect(Set(comments) == ["Schön", "Gut zusammen"], "her grade and her team's")
            #expect(!changes.contains { ($0["entityId"] as? String) == bens.key })
            let sketches = try #require(try JSONSerialization.jsonObject(with: read("sketches.json")) as? [[String: Any]])
            var listed: [String: (deleted: Bool?, image: String?)] = [:]
            for sketch in sketches { listed[sketch["name"] as? String ?? ""] = (sketch["deleted"] as? Bool, sketch["image"] as? String) }
            #expect(Set(listed.keys) == ["Mias Haus/../x", "Weg", "Zoo"])
            #expect(listed["Weg"]?.deleted == true && listed["Mias Haus/../x"]?.deleted == false)
            // Numbered in the list's order; the name's slashes and dots never make a path.
            let images = sketches.compactMap { $0["image"] as? String }
            #expect(images.count == 3 && images.allSatisfy { $0.hasPrefix("sketches/00") && !$0.contains("..") })
            #expect(listed["Weg"]?.image?.hasSuffix("-Weg.png") == true)
            #expect(listed["Mias Haus/../x"]?.image?.hasSuffix("-Mias Haus____x.png") == true)
            for image in images {
                #expect(Array(try read(image).prefix(4)) == [0x89, 0x50, 0x4E, 0x47], "\(image) is a PNG")
            }
            #expect(archive.map(\.path).sorted() == (["changes.json", "pupil.json", "sketches.json"] + images).sorted())
        }
    }

    @Test(arguments: Backend.allCases)
    func removingAPupilErasesWhatIsTheirsAndLeavesTheTeamsSketches(_ backend: Backend) async throws {
        try await TestServer(backend).run { api in
            let (_, berg) = try await api.teacher("Frau Berg")
            let (_, kurz) = try await api.teacher("Herr Kurz")
            let twoB = try await api.schoolClass("2b", teacher: berg, pupils: ["Mia", "Ben"])
            let mia = twoB.pupils["Mia"]!, ben = twoB.pupils["Ben"]!
            // Mia's own sketch, graded.
            let own = UUID()
            #expect(try await api.push([Changes.create(own, name: "Mias Haus"), Changes.stroke(own),
                                        Changes.record("profile", mia.id, ProfileRecord(name: "Mia", at: 1)),
                                        Changes.round(player: mia.id, name: "Mia")], token: mia.token).rejected.isEmpty)
            let grade = GradeRecord(target: .sketch, targetId: GradedWorkID(own), pupilId: AccountID(mia.id), pupilName: "Mia", grade: 1,
                                    comment: "Schön", at: 1)
            #expect(try await api.push([Changes.grade(grade)], token: berg).rejected.isEmpty)
            // Mia's laptop hosted a game: Ben's round in it is Ben's.
            let bensRound = Changes.round(player: ben.id, name: "Ben")
            #expect(try await api.push([bensRound], token: mia.token).rejected.isEmpty)
            // A team sketch Ben hosted and one Mia hosted, both drawn in by both.
            let (bens, mias) = try await api.teamSketchesHostedByEach(mia: mia, ben: ben)

            #expect(try await api.call(.get, "/pupils/\(mia.id)", token: kurz).status == .forbidden)
            let record = try await api.call(.get, "/pupils/\(mia.id)", token: berg)
            #expect(record.status == .ok)
            #expect(record.object["sketches"] as? Int == 1)
            #expect(record.object["teamSketches"] as? Int == 2)
            #expect(record.object["gameRounds"] as? Int == 1)
            #expect(record.object["grades"] as? Int == 1)

            #expect(try await api.call(.delete, "/pupils/\(mia.id)", token: kurz).status == .forbidden)
            #expect(try await api.call(.delete, "/pupils/\(mia.id)", token: mia.token).status == .forbidden)
            #expect(try await api.call(.delete, "/pupils/\(mia.id)", token: berg).status == .noContent)
            #expect(try await api.call(.delete, "/pupils/\(mia.id)", token: berg).status == .notFound)
            #expect(try await api.call(.get, "/pupils/\(mia.id)", token: berg).status == .notFound)

            // She is gone: no sign-in, no name in the class.
            #expect(try await api.call(.get, "/me", token: mia.token).status == .unauthorized)
            #expect(try await api.call(.post, "/sign-in/pupil", json: ["pupilId": mia.id, "pictures": [1, 2, 3]]).status == .unauthorized)
            #expect(try await api.call(.get, "/classes/\(twoB.id)/pupils", token: berg).array.map { $0["name"] as? String } == ["Ben"])
            // Her own sketch, grade, round and profile are nowhere.
            let sketches = try await api.call(.get, "/sketches", token: berg).array.compactMap { $0["name"] as? String }
            #expect(Set(sketches) == ["Bens Zoo", "Mias Zoo"])
            let pulled = try await api.pullAll(token: berg)
            #expect(!pulled.contains { $0["entityId"] as? String == own.key })
            #expect(!pulled.contains { $0["entity"] as? String == "grade" || $0["entity"] as? String == "profile" })
            #expect(pulled.filter { $0["entity"] as? String == "wordPostRoundStat" }.map { $0["entityId"] as? String }
                    == [bensRound["entityId"] as? String], "only Ben's round is left")
            #expect(try await api.database.query("SELECT COUNT(*) AS n FROM roundResult WHERE playerId = ?", [.text(ben.id)])
                .first?.int("n") == 1)
            for table in ["gradeState WHERE pupilId = ?", "roundResult WHERE playerId = ?", "profileState WHERE accountId = ?",
                          "account WHERE id = ?", "token WHERE accountId = ?", "sketchAuthor WHERE accountId = ?",
                          "accountUsage WHERE accountId = ?", "change WHERE authorId = ? AND sketchId IS NULL AND subjectId IS NULL"] {
                let left = try await api.database.query("SELECT COUNT(*) AS n FROM \(table)", [.text(mia.id)]).first?.int("n")
                #expect(left == 0, "\(table)")
            }
            #expect(try await api.database.query("SELECT COUNT(*) AS n FROM sketch WHERE id = ?", [.text(own.key)]).first?.int("n") == 0)
            // Berg's laptops and Ben's are told what to forget, by the server
            // alone: nobody can push an erasure.
            for token in [berg, ben.token] {
                let told = try await api.pullAll(token: token).filter { $0["entity"] as? String == "erasure" }
                #expect(told.count == 1)
                let erasure = try JSONDecoder().decode(AccountErasure.self, from: Data((told.first?["payload"] as? String ?? "").utf8))
                #expect(erasure.account == mia.id)
                #expect(erasure.sketches == [own.key])
                #expect(erasure.grades.count == 1 && erasure.results.count == 1)
            }
            #expect(try await api.pullAll(token: kurz).allSatisfy { $0["entity"] as? String != "erasure" })
            let forged = Changes.record("erasure", ben.id, AccountErasure(account: ben.id, sketches: [], grades: [], results: []))
            #expect(try await api.push([forged], token: berg).rejected.values.first == "forbidden")
            // The teams keep their sketches, with both children's lines.
            for id in [bens, mias] {
                let image = try await api.call(.get, "/sketches/\(id.key)/image", token: ben.token)
                #expect(image.status == .ok)
                let ops = try await api.pullAll(token: ben.token).filter { $0["entity"] as? String == "sketchOp" && $0["entityId"] as? String == id.key }
                #expect(ops.count == 2)
            }
        }
    }

    private func signIn(_ api: TestAPI, _ name: String, _ password: String) async throws -> String {
        let answer = try await api.call(.post, "/sessions", json: ["name": name, "password": password])
        return try #require(answer.object["token"] as? String)
    }

}
