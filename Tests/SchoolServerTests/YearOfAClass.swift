import Foundation
import LearnModel
import Testing
@testable import SchoolServer

/// A school year of one class, written through the API as the laptops
/// would: 25 pupils, a sketch a week each (38 weeks, 8 strokes a sketch),
/// every sketch graded by the teacher, and 8 rounds of Buchstaben Post a
/// pupil. About 9,000 changes; what a backup of a real class must keep.
struct YearOfAClass {
    static let pupils = (1...25).map { "Kind \($0)" }
    static let weeks = 38
    static let strokesPerSketch = 8
    static let roundsPerPupil = 8

    var teacher: (id: String, token: String)
    var klass: TestClass

    static func write(_ api: TestAPI) async throws -> YearOfAClass {
        let teacher = try await api.teacher("Frau Berg")
        let klass = try await api.schoolClass("3a", teacher: teacher.token, pupils: pupils)
        var grades: [[String: Any]] = []
        for (index, name) in pupils.enumerated() {
            let pupil = try #require(klass.pupils[name])
            var changes: [[String: Any]] = []
            for week in 0..<weeks {
                let sketch = UUID()
                changes.append(Changes.create(sketch, name: "Woche \(week + 1)", origin: .alone(creator: UUID(uuidString: pupil.id))))
                changes += (0..<strokesPerSketch).map { Changes.stroke(sketch, author: name, x: Double(week * 10 + $0)) }
                grades.append(Changes.grade(GradeRecord(
                    target: .sketch, targetId: GradedWorkID(sketch), pupilId: AccountID(pupil.id), grade: 1 + (index + week) % 5,
                    comment: week % 4 == 0 ? "Schön, \(name)!" : "", at: 1_790_000_000_000 + Int64(week) * 604_800_000)))
            }
            changes += (0..<roundsPerPupil).map { Changes.round(player: pupil.id, name: name, word: ["Haus", "Baum", "Maus", "Hund"][$0 % 4]) }
            // A laptop pushes in batches, as SyncService does.
            for batch in stride(from: 0, to: changes.count, by: 200) {
                _ = try await api.pushMarked(Array(changes[batch..<min(batch + 200, changes.count)]), token: pupil.token)
            }
        }
        for batch in stride(from: 0, to: grades.count, by: 200) {
            _ = try await api.pushMarked(Array(grades[batch..<min(batch + 200, grades.count)]), token: teacher.token)
        }
        return YearOfAClass(teacher: teacher, klass: klass)
    }

    /// What every account sees: each one's pulled changes (id and payload),
    /// each one's sketch list, and the class's grade and game spreadsheets.
    struct Seen: Equatable {
        var pulled: [String: [String]]
        var listed: [String: [String]]
        var grades: [String]
        var games: [String]
    }

    /// `leaving`: these sketches (drawn while the backup was made, so
    /// partly in it) are left out.
    func seen(_ api: TestAPI, leaving: Set<String> = []) async throws -> Seen {
        var pulled: [String: [String]] = [:], listed: [String: [String]] = [:]
        let people = klass.pupils.mapValues(\.token).merging(["Frau Berg": teacher.token]) { $1 }
        for (name, token) in people {
            pulled[name] = try await api.pullAll(token: token)
                .filter { !leaving.contains($0["entityId"] as? String ?? "") }
                .map { "\($0["opId"] ?? "") \($0["payload"] ?? "")" }
            listed[name] = try await api.call(.get, "/sketches", token: token).array
                .compactMap { $0["id"] as? String }.filter { !leaving.contains($0) }.sorted()
        }
        let browser = WebGalleryTests.Browser(api.client, language: "en")
        let form = try await browser.get("/gallery/signin")
        _ = try await browser.post("/gallery/signin", [("form", form.formToken ?? ""), ("name", "Frau Berg"),
                                                      ("password", "correct horse")])
        func rows(_ csv: String) -> [String] { csv.components(separatedBy: "\r\n").sorted() }
        let grades = rows(try await browser.get("/gallery/classes/\(klass.id)/grades.csv").text)
        let games = rows(try await browser.get("/gallery/classes/\(klass.id)/games.csv").text)
        return Seen(pulled: pulled, listed: listed, grades: grades, games: games)
    }

    /// The year is all there: a sketch a week each, every grade, every round.
    static func expectWhole(_ seen: Seen) {
        #expect(seen.listed["Kind 1"]?.count == weeks)
        #expect(seen.grades.count >= pupils.count * weeks, "\(seen.grades.count) grade rows")
        #expect(seen.games.count >= pupils.count * roundsPerPupil, "\(seen.games.count) game rows")
        #expect((seen.pulled["Frau Berg"]?.count ?? 0) >= pupils.count * weeks * (strokesPerSketch + 2))
    }
}

/// Pupils drawing on, each in a new sketch of their own, a stroke a push,
/// while something else (a backup) happens.
final class DrawingLoad: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    private var task: Task<Void, any Error>?
    let sketches: Set<String>

    private init(sketches: Set<String>) { self.sketches = sketches }

    var pushes: Int { lock.withLock { count } }

    static func start(_ api: TestAPI, pupils: [(id: String, token: String)]) async throws -> DrawingLoad {
        let drawn = pupils.map { ($0, UUID()) }
        let load = DrawingLoad(sketches: Set(drawn.map { $0.1.uuidString.lowercased() }))
        for (pupil, sketch) in drawn {
            _ = try await api.pushMarked([Changes.create(sketch, name: "Pause", origin: .alone(creator: UUID(uuidString: pupil.id)))],
                                         token: pupil.token)
        }
        load.task = Task {
            var x = 0.0
            while !Task.isCancelled {
                for (pupil, sketch) in drawn {
                    _ = try await api.pushMarked([Changes.stroke(sketch, author: "Kind", x: x)], token: pupil.token)
                    load.lock.withLock { load.count += 1 }
                }
                x += 1
            }
        }
        return load
    }

    func stop() async throws {
        task?.cancel()
        // A push cut off by the cancellation is no failure of the load.
        _ = try? await task?.value
    }
}
