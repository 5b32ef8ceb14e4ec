import Foundation
import HTTPTypes
import LearnModel
import Testing
@testable import SchoolServer

/// Every endpoint of openapi.yaml against every kind of caller: no token,
/// a wrong, an expired and a revoked one, another teacher, a pupil of the
/// class and a pupil of another class. A new endpoint without a row here
/// fails the test.
@Suite struct AuthorizationMatrixTests {
    /// Who calls.
    enum Caller: String, CaseIterable, CustomStringConvertible {
        case owner, noToken, wrongToken, expired, revoked, otherTeacher, pupil, otherPupil
        var description: String { rawValue }
    }

    /// What the caller gets: a status, and for the lists whether the
    /// owner's records are in it.
    enum Outcome: Equatable, CustomStringConvertible {
        case status(HTTPResponse.Status)
        /// 200, without anything of the owning class.
        case okWithoutOthers
        /// 200 for a push, with the change refused.
        case refused

        var description: String {
            switch self {
            case .status(let s): "\(s.code)"
            case .okWithoutOthers: "200 without others' records"
            case .refused: "200 with the change refused"
            }
        }
    }

    struct Row {
        var operation: String
        var method: HTTPRequest.Method
        var path: (World) -> String
        var body: (World) -> Any? = { _ in nil }
        /// What each caller gets; a caller not named gets 401.
        var outcomes: [Caller: Outcome]
    }

    /// The records the calls are about, all of Frau Berg's class 2b. Frau
    /// Berg is the school's first teacher, so its admin too.
    struct World {
        var classID: String
        var pupilID: String
        /// A second pupil of 2b, Tom, whom the owner removes at the end.
        var spareID: String
        /// Herr Alt, a teacher whose password the admin resets.
        var altID: String
        var sketch: UUID
        var tokens: [Caller: String]
    }

    static let unauthorized: [Caller] = [.noToken, .wrongToken, .expired, .revoked]

    static var rows: [Row] { [
        Row(operation: "getHealth", method: .get, path: { _ in "/health" },
            outcomes: Dictionary(uniqueKeysWithValues: Caller.allCases.map { ($0, .status(.ok)) })),
        Row(operation: "signInTeacher", method: .post, path: { _ in "/sessions" },
            body: { _ in ["name": "Frau Berg", "password": "correct horse"] },
            outcomes: Dictionary(uniqueKeysWithValues: Caller.allCases.map { ($0, .status(.created)) })),
        Row(operation: "listSignInClasses", method: .get, path: { _ in "/sign-in/classes" },
            outcomes: Dictionary(uniqueKeysWithValues: Caller.allCases.map { ($0, .status(.ok)) })),
        // Names for the class itself (its pupils, its teacher), a device
        // it has seen or its code (RosterTests); anyone else learns nothing.
        Row(operation: "listSignInPupils", method: .get, path: { "/sign-in/classes/\($0.classID)/pupils" },
            outcomes: Dictionary(uniqueKeysWithValues: Caller.allCases.map { ($0, .status(.notFound)) })
                .merging([.owner: .status(.ok), .pupil: .status(.ok)]) { $1 }),
        Row(operation: "signInPupil", method: .post, path: { _ in "/sign-in/pupil" },
            body: { ["pupilId": $0.pupilID, "pictures": [1, 2, 3]] },
            outcomes: Dictionary(uniqueKeysWithValues: Caller.allCases.map { ($0, .status(.created)) })),
        Row(operation: "getMe", method: .get, path: { _ in "/me" },
            outcomes: [.owner: .status(.ok), .otherTeacher: .status(.ok), .pupil: .status(.ok), .otherPupil: .status(.ok)]),
        Row(operation: "listClasses", method: .get, path: { _ in "/classes" },
            outcomes: [.owner: .status(.ok), .otherTeacher: .okWithoutOthers, .pupil: .status(.ok), .otherPupil: .okWithoutOthers]),
        Row(operation: "createClass", method: .post, path: { _ in "/classes" },
            body: { _ in ["name": "Neu \(UUID().uuidString.prefix(8))"] },
            outcomes: [.owner: .status(.created), .otherTeacher: .status(.created), .pupil: .status(.forbidden),
                       .otherPupil: .status(.forbidden)]),
        // Renaming it to what it is called and "restoring" it keep the rows after them as they were.
        Row(operation: "renameClass", method: .put, path: { "/classes/\($0.classID)/name" },
            body: { _ in ["name": "2b"] },
            outcomes: [.owner: .status(.ok), .otherTeacher: .status(.forbidden), .pupil: .status(.forbidden),
                       .otherPupil: .status(.forbidden)]),
        Row(operation: "setClassArchived", method: .put, path: { "/classes/\($0.classID)/archived" },
            body: { _ in ["archived": false] },
            outcomes: [.owner: .status(.ok), .otherTeacher: .status(.forbidden), .pupil: .status(.forbidden),
                       .otherPupil: .status(.forbidden)]),
        Row(operation: "listPupils", method: .get, path: { "/classes/\($0.classID)/pupils" },
            outcomes: [.owner: .status(.ok), .otherTeacher: .status(.forbidden), .pupil: .status(.forbidden),
                       .otherPupil: .status(.forbidden)]),
        Row(operation: "addPupil", method: .post, path: { "/classes/\($0.classID)/pupils" },
            body: { _ in ["name": "Kind \(UUID().uuidString.prefix(8))"] },
            outcomes: [.owner: .status(.created), .otherTeacher: .status(.forbidden), .pupil: .status(.forbidden),
                       .otherPupil: .status(.forbidden)]),
        // Only the admin sees and makes teacher accounts.
        // Every teacher reads how long archived classes are kept; only the admin sets it.
        Row(operation: "getRetention", method: .get, path: { _ in "/school/retention" },
            outcomes: [.owner: .status(.ok), .otherTeacher: .status(.ok), .pupil: .status(.forbidden),
                       .otherPupil: .status(.forbidden)]),
        Row(operation: "setRetention", method: .put, path: { _ in "/school/retention" },
            body: { _ in ["days": 365] },
            outcomes: [.owner: .status(.ok), .otherTeacher: .status(.forbidden), .pupil: .status(.forbidden),
                       .otherPupil: .status(.forbidden)]),
        Row(operation: "listTeachers", method: .get, path: { _ in "/teachers" },
            outcomes: [.owner: .status(.ok), .otherTeacher: .status(.forbidden), .pupil: .status(.forbidden),
                       .otherPupil: .status(.forbidden)]),
        Row(operation: "createTeacher", method: .post, path: { _ in "/teachers" },
            body: { _ in ["name": "Lehrerin \(UUID().uuidString.prefix(8))", "password": "a new password"] },
            outcomes: [.owner: .status(.created), .otherTeacher: .status(.forbidden), .pupil: .status(.forbidden),
                       .otherPupil: .status(.forbidden)]),
        Row(operation: "resetTeacherPassword", method: .put, path: { "/teachers/\($0.altID)/password" },
            body: { _ in ["password": "correct horse"] },
            outcomes: [.owner: .status(.noContent), .otherTeacher: .status(.forbidden), .pupil: .status(.forbidden),
                       .otherPupil: .status(.forbidden)]),
        // Every teacher their own (the same again: the token that asks stays).
        Row(operation: "changeOwnPassword", method: .put, path: { _ in "/me/password" },
            body: { _ in ["currentPassword": "correct horse", "newPassword": "correct horse"] },
            outcomes: [.owner: .status(.noContent), .otherTeacher: .status(.noContent), .pupil: .status(.forbidden),
                       .otherPupil: .status(.forbidden)]),
        Row(operation: "getPupilRecord", method: .get, path: { "/pupils/\($0.spareID)" },
            outcomes: [.owner: .status(.ok), .otherTeacher: .status(.forbidden), .pupil: .status(.forbidden),
                       .otherPupil: .status(.forbidden)]),
        Row(operation: "exportPupil", method: .get, path: { "/pupils/\($0.pupilID)/export" },
            outcomes: [.owner: .status(.ok), .otherTeacher: .status(.forbidden), .pupil: .status(.forbidden),
                       .otherPupil: .status(.forbidden)]),
        // To the name Tom has, and into the class he is in: nothing changes.
        Row(operation: "renamePupil", method: .put, path: { "/pupils/\($0.spareID)/name" },
            body: { _ in ["name": "Tom"] },
            outcomes: [.owner: .status(.ok), .otherTeacher: .status(.forbidden), .pupil: .status(.forbidden),
                       .otherPupil: .status(.forbidden)]),
        Row(operation: "movePupil", method: .put, path: { "/pupils/\($0.spareID)/class" },
            body: { ["classId": $0.classID] },
            outcomes: [.owner: .status(.ok), .otherTeacher: .status(.forbidden), .pupil: .status(.forbidden),
                       .otherPupil: .status(.forbidden)]),
        Row(operation: "setPicturePassword", method: .put, path: { "/pupils/\($0.pupilID)/picture-password" },
            body: { _ in ["pictures": [1, 2, 3]] },
            outcomes: [.owner: .status(.noContent), .otherTeacher: .status(.forbidden), .pupil: .status(.forbidden),
                       .otherPupil: .status(.forbidden)]),
        Row(operation: "pushChanges", method: .post, path: { _ in "/sync/push" },
            body: { ["changes": [Changes.stroke($0.sketch)]] },
            outcomes: [.owner: .status(.ok), .pupil: .status(.ok), .otherTeacher: .refused, .otherPupil: .refused]),
        Row(operation: "pullChanges", method: .get, path: { _ in "/sync/changes" },
            outcomes: [.owner: .status(.ok), .pupil: .status(.ok), .otherTeacher: .okWithoutOthers, .otherPupil: .okWithoutOthers]),
        Row(operation: "listSketches", method: .get, path: { _ in "/sketches" },
            outcomes: [.owner: .status(.ok), .pupil: .status(.ok), .otherTeacher: .okWithoutOthers, .otherPupil: .okWithoutOthers]),
        Row(operation: "getSketchThumbnail", method: .get, path: { "/sketches/\($0.sketch)/thumbnail" },
            outcomes: [.owner: .status(.ok), .pupil: .status(.ok), .otherTeacher: .status(.notFound),
                       .otherPupil: .status(.notFound)]),
        Row(operation: "getSketchImage", method: .get, path: { "/sketches/\($0.sketch)/image" },
            outcomes: [.owner: .status(.ok), .pupil: .status(.ok), .otherTeacher: .status(.notFound),
                       .otherPupil: .status(.notFound)]),
        // Near the end: Tom is gone after it.
        Row(operation: "removePupil", method: .delete, path: { "/pupils/\($0.spareID)" },
            outcomes: [.owner: .status(.noContent), .otherTeacher: .status(.forbidden), .pupil: .status(.forbidden),
                       .otherPupil: .status(.forbidden)]),
        // Last: it revokes the caller's token.
        Row(operation: "signOut", method: .delete, path: { _ in "/sessions/current" },
            outcomes: [.owner: .status(.noContent), .otherTeacher: .status(.noContent), .pupil: .status(.noContent),
                       .otherPupil: .status(.noContent)]),
    ] }

    @Test func everyOperationOfTheSpecHasARow() throws {
        let spec = try String(contentsOfFile: #filePath.replacingOccurrences(
            of: "Tests/SchoolServerTests/AuthorizationMatrixTests.swift", with: "Sources/SchoolServerAPI/openapi.yaml"), encoding: .utf8)
        let operations = spec.split(separator: "\n").compactMap { line -> String? in
            let parts = line.split(separator: ":", maxSplits: 1)
            guard parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces) == "operationId" else { return nil }
            return parts[1].trimmingCharacters(in: .whitespaces)
        }
        #expect(operations.count > 10)
        #expect(Set(operations) == Set(Self.rows.map(\.operation)))
    }

    @Test(arguments: Backend.allCases)
    func everyCallerGetsWhatTheRulesSay(_ backend: Backend) async throws {
        try await TestServer(backend).run { api in
            // Frau Berg first: the first teacher is the admin. The expired
            // and revoked tokens are made next: expiring one means moving
            // the clock past every earlier sign-in, so she signs in again.
            _ = try await api.teacher("Frau Berg")
            let (alt, _) = try await api.teacher("Herr Alt")
            let expired = try await Self.signIn(api, "Herr Alt")
            api.clock.advance(seconds: 15 * 24 * 3600)
            let berg = try await Self.signIn(api, "Frau Berg")
            let (_, kurz) = try await api.teacher("Herr Kurz")
            let revoked = try await Self.signIn(api, "Herr Alt")
            #expect(try await api.call(.delete, "/sessions/current", token: revoked).status == .noContent)
            let twoB = try await api.schoolClass("2b", teacher: berg, pupils: ["Mia", "Tom"])
            let threeA = try await api.schoolClass("3a", teacher: kurz, pupils: ["Eve"])
            let sketch = UUID()
            _ = try await api.push([Changes.create(sketch), Changes.stroke(sketch)], token: twoB.pupils["Mia"]!.token)
            var world = World(classID: twoB.id, pupilID: twoB.pupils["Mia"]!.id, spareID: twoB.pupils["Tom"]!.id,
                              altID: alt, sketch: sketch, tokens: [
                .owner: berg, .wrongToken: BearerToken.random().text, .expired: expired, .revoked: revoked,
                .otherTeacher: kurz, .pupil: twoB.pupils["Mia"]!.token, .otherPupil: threeA.pupils["Eve"]!.token,
            ])

            for row in Self.rows {
                // The owner last: setting a pupil's pictures signs the
                // pupil out, and signing out ends the owner's token.
                for caller in Caller.allCases.filter({ $0 != .owner }) + [.owner] {
                    let expected = row.outcomes[caller] ?? .status(.unauthorized)
                    let answer = try await api.call(row.method, row.path(world), token: world.tokens[caller],
                                                    json: row.body(world))
                    let got: Outcome
                    switch expected {
                    case .status:
                        got = .status(answer.status)
                    case .okWithoutOthers:
                        let text = String(decoding: answer.body, as: UTF8.self)
                        let leaks = text.contains(twoB.id) || text.contains(sketch.uuidString.lowercased())
                        got = answer.status == .ok && !leaks ? .okWithoutOthers : .status(answer.status)
                    case .refused:
                        let refused = (answer.object["rejected"] as? [Any])?.count == 1
                        got = answer.status == .ok && refused ? .refused : .status(answer.status)
                    }
                    #expect(got == expected, "\(row.operation) by \(caller)")
                    if caller == .owner, row.operation == "signOut" {
                        #expect(try await api.call(.get, "/me", token: berg).status == .unauthorized)
                    }
                }
                if row.operation == "setPicturePassword" {
                    // Setting the pictures signs the pupil out everywhere.
                    #expect(try await api.call(.get, "/me", token: world.tokens[.pupil]).status == .unauthorized)
                    let again = try await api.call(.post, "/sign-in/pupil", json: ["pupilId": world.pupilID, "pictures": [1, 2, 3]])
                    world.tokens[.pupil] = try #require(again.object["token"] as? String)
                }
            }
        }
    }

    private static func signIn(_ api: TestAPI, _ name: String) async throws -> String {
        let answer = try await api.call(.post, "/sessions", json: ["name": name, "password": "correct horse"])
        return try #require(answer.object["token"] as? String)
    }
}
