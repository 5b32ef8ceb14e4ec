import Foundation
import HTTPTypes
import LearnModel
import LearnStore
import SchoolClient
import TeamsketchCore
import Testing
@testable import SchoolServer

/// A class with pupils who have signed in, for the sync tests.
struct TestClass {
    var id: String
    var teacherToken: String
    var pupils: [String: (id: String, token: String)]
    /// What the teacher hands out for a new device.
    var code: String = ""
}

extension TestAPI {
    /// A class of this teacher with these pupils, each signed in with their pictures.
    func schoolClass(_ name: String, teacher token: String, pupils names: [String]) async throws -> TestClass {
        let made = try await call(.post, "/classes", token: token, json: ["name": name])
        guard let classID = made.object["id"] as? String else { throw TestSetupProblem("class \(name): \(made.status)") }
        var pupils: [String: (String, String)] = [:]
        for pupil in names {
            let added = try await call(.post, "/classes/\(classID)/pupils", token: token, json: ["name": pupil])
            guard let id = added.object["id"] as? String else { throw TestSetupProblem("pupil \(pupil): \(added.status)") }
            _ = try await call(.put, "/pupils/\(id)/picture-password", token: token, json: ["pictures": [1, 2, 3]])
            let signedIn = try await call(.post, "/sign-in/pupil", json: ["pupilId": id, "pictures": [1, 2, 3]])
            guard let pupilToken = signedIn.object["token"] as? String else {
                throw TestSetupProblem("signing in \(pupil): \(signedIn.status)")
            }
            pupils[pupil] = (id, pupilToken)
        }
        return TestClass(id: classID, teacherToken: token, pupils: pupils, code: made.object["code"] as? String ?? "")
    }

    /// Pushes changes that must all be accepted; the push's mark.
    func pushMarked(_ changes: [[String: Any]], token: String) async throws -> String {
        let answer = try await call(.post, "/sync/push", token: token, json: ["changes": changes])
        guard answer.status == .ok, (answer.object["rejected"] as? [Any])?.isEmpty == true,
              let id = answer.object["pushId"] as? String else { throw TestSetupProblem("push: \(answer.status) \(answer.object)") }
        return id
    }

    /// Pushes changes; the answer's accepted ids and rejections by opId.
    func push(_ changes: [[String: Any]], token: String) async throws -> (status: HTTPResponse.Status, accepted: [String], rejected: [String: String]) {
        let answer = try await call(.post, "/sync/push", token: token, json: ["changes": changes])
        let accepted = answer.object["accepted"] as? [String] ?? []
        var rejected: [String: String] = [:]
        for r in answer.object["rejected"] as? [[String: Any]] ?? [] {
            rejected[r["opId"] as? String ?? ""] = r["code"] as? String
        }
        return (answer.status, accepted, rejected)
    }

    /// "Bens Zoo" hosted by Ben and "Mias Zoo" hosted by Mia, each drawn
    /// in by both, pushed from both laptops; their ids.
    func teamSketchesHostedByEach(mia: (id: String, token: String), ben: (id: String, token: String)) async throws
        -> (bens: UUID, mias: UUID) {
        let (bens, bensCreate) = Changes.hosted(by: ben.id, name: "Bens Zoo")
        let (mias, miasCreate) = Changes.hosted(by: mia.id, name: "Mias Zoo")
        for (id, create) in [(bens, bensCreate), (mias, miasCreate)] {
            let members = [Changes.member(mia.id, of: id), Changes.member(ben.id, of: id)]
            for (pusher, stroke) in [(mia, Changes.stroke(id, author: "Mia")), (ben, Changes.stroke(id, author: "Ben", x: 500))] {
                let answer = try await push([create] + members + [stroke], token: pusher.token)
                guard answer.rejected.isEmpty else { throw TestSetupProblem("team sketch refused: \(answer.rejected)") }
            }
        }
        return (bens, mias)
    }

    /// Every change the token may see, page by page.
    /// `skip`: pushes whose changes are to be left out.
    func pullAll(token: String, limit: Int = 500, skip: [String] = []) async throws -> [[String: Any]] {
        try await pullPages(token: token, limit: limit, skip: skip).changes
    }

    /// Every change the token may see, and the cursor after them.
    func pullPages(token: String, limit: Int = 500, skip: [String] = []) async throws -> (changes: [[String: Any]], cursor: Int64) {
        var cursor: Int64 = 0
        var all: [[String: Any]] = []
        let skipped = skip.map { "&skip=\($0)" }.joined()
        while true {
            let page = try await call(.get, "/sync/changes?after=\(cursor)&limit=\(limit)\(skipped)", token: token)
            guard page.status == .ok else { throw TestSetupProblem("pull: \(page.status)") }
            all += page.object["changes"] as? [[String: Any]] ?? []
            cursor = (page.object["cursor"] as? NSNumber)?.int64Value ?? cursor
            if page.object["more"] as? Bool != true { return (all, cursor) }
        }
    }
}

/// Changes as a device's outbox writes them.
enum Changes {
    static let start = Date(timeIntervalSince1970: 1_790_000_000)

    /// A sketch's creation, under the op id every device works out for it.
    /// `origin`: a team's (drawn in a LAN session, started by its host) or
    /// one pupil's; nil names nobody (the pusher starts it alone).
    static func create(_ sketch: UUID, name: String = "Zoo", origin: SketchOrigin = .alone(creator: nil)) -> [String: Any] {
        let meta = SketchMeta(id: sketch, name: name, createdAt: start)
        let payload = try! SketchChange.create(meta, origin: origin, at: 1_790_000_000_000).encoded()
        return change(SketchOpIdentity.creation(of: sketch), "sketch", sketch.uuidString.lowercased(), payload)
    }

    /// A team sketch's creation as every member's laptop pushes it: started
    /// by the host's account (`creator`, an id as the test API gives it),
    /// with the nonce a bound id was made with (`TeamSketchID`).
    static func teamCreate(_ sketch: UUID, creator: String, nonce: UUID? = nil, name: String = "Zoo") -> [String: Any] {
        create(sketch, name: name, origin: .team(creator: UUID(uuidString: creator)!, nonce: nonce))
    }

    /// A team sketch `creator` hosted: its id, made for them
    /// (`TeamSketchID`), and the creation every member's laptop pushes.
    static func hosted(by creator: String, name: String = "Zoo") -> (id: UUID, create: [String: Any]) {
        let hosted = SessionSketch.hosted(creator: UUID(uuidString: creator)!)
        return (hosted.id, teamCreate(hosted.id, creator: creator, nonce: hosted.nonce, name: name))
    }

    /// "`account` draws in the sketch", under the id both name.
    static func member(_ account: String, of sketch: UUID) -> [String: Any] {
        let id = UUID(uuidString: account)!
        return change(SketchOpIdentity.member(id, of: sketch), "sketch", sketch.uuidString.lowercased(),
                      try! SketchChange.member(id, at: 1_790_000_000_000).encoded())
    }

    static func sketchChange(_ sketch: UUID, _ change: SketchChange) -> [String: Any] {
        Self.change(UUID(), "sketch", sketch.uuidString.lowercased(), try! change.encoded())
    }

    static func stroke(_ sketch: UUID, id: UUID = UUID(), author: String = "Mia", x: Double = 100) -> [String: Any] {
        let stroke = Stroke(id: id, author: author, color: RGBA(r: 0.9, g: 0.1, b: 0.1, a: 1), width: 12,
                            start: Point(x, 100),
                            segments: [CubicSegment(c1: Point(x + 200, 150), c2: Point(x + 400, 300), end: Point(x + 600, 500))],
                            startedAt: start, endedAt: start.addingTimeInterval(1))
        return op(.addStroke(stroke), in: sketch)
    }

    /// An op under the id every member of the sketch works out for it.
    static func op(_ op: SketchOp, in sketch: UUID) -> [String: Any] {
        change(SketchOpIdentity.id(of: op, in: sketch), "sketchOp", sketch.uuidString.lowercased(),
               try! SketchOpPayload.encode(op))
    }

    /// A stroke imported from Xournal++: pressure widths, fill, dashes, multiply; `edit` may spoil it.
    static func styledStroke(_ sketch: UUID, edit: (inout Stroke) -> Void = { _ in }) -> (Stroke, [String: Any]) {
        var stroke = Stroke(id: UUID(), author: "Mia", color: RGBA(r: 1, g: 1, b: 0, a: 120.0 / 255), width: 4,
                            start: Point(100, 100), segments: [.line(from: Point(100, 100), to: Point(300, 100)),
                                                               .line(from: Point(300, 100), to: Point(300, 300))],
                            startedAt: start, endedAt: start.addingTimeInterval(1))
        stroke.widths = [2, 6]
        stroke.fill = 0.5
        stroke.dashes = [6, 3]
        stroke.blend = .multiply
        edit(&stroke)
        return (stroke, op(.addStroke(stroke), in: sketch))
    }

    /// One round of Buchstaben Post a pupil played on their own laptop.
    static func round(player: String, name: String, word: String = "Haus") -> [String: Any] {
        let stat = WordPostRoundStat(id: UUID(), gameID: UUID(), round: 1, playerName: name, word: word, finished: true,
                                     milliseconds: 20_000, lettersSent: 1, lettersReceived: 1, wrongPlacements: 0,
                                     playedAt: Date(timeIntervalSince1970: 1_789_000_000), playerID: UUID(uuidString: player))
        return record("wordPostRoundStat", stat.id.uuidString.lowercased(), stat)
    }

    /// A grade under the id its work and pupil name.
    static func grade(_ record: GradeRecord) -> [String: Any] {
        let work = record.targetId.uuid!
        let id = record.pupilId?.uuid.map { GradeIdentity.pupil(record.target, work, pupil: $0) }
            ?? GradeIdentity.team(record.target, work)
        return Self.record("grade", id.uuidString.lowercased(), record)
    }

    static func record<T: Encodable>(_ entity: String, _ entityId: String, _ value: T, opId: UUID = UUID()) -> [String: Any] {
        change(opId, entity, entityId, try! JSONEncoder().encode(value))
    }

    static func change(_ opId: UUID, _ entity: String, _ entityId: String, _ payload: Data) -> [String: Any] {
        ["opId": opId.uuidString.lowercased(), "entity": entity, "entityId": entityId,
         "payload": String(decoding: payload, as: UTF8.self), "createdAt": 1_790_000_000_000]
    }
}

extension Array where Element == [String: Any] {
    func ids(_ key: String = "opId") -> [String] { compactMap { $0[key] as? String } }
}

/// Frau Berg with her class 2b (Mia), and a laptop each that syncs through
/// the test server with the app's own client and sync service: what the
/// desktop sync tests start from.
struct MiaAndHerTeacher {
    let berg: String
    let mia: (id: String, token: String)
    let client: SchoolServerClient
    let miasLaptop: LocalStore, teachersLaptop: LocalStore
    /// Mia's laptop's sync service and the teacher's.
    let a: SyncService, b: SyncService

    init(_ api: TestAPI) async throws {
        (_, berg) = try await api.teacher("Frau Berg")
        mia = try #require(try await api.schoolClass("2b", teacher: berg, pupils: ["Mia"]).pupils["Mia"])
        client = try appClient(api)
        miasLaptop = try LocalStore.inMemory()
        teachersLaptop = try LocalStore.inMemory()
        a = SyncService(store: miasLaptop, connection: client.connection(token: mia.token), key: "a")
        b = SyncService(store: teachersLaptop, connection: client.connection(token: berg), key: "b")
    }
}
