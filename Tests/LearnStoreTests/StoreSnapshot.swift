import Foundation
import LearnModel
import LearnStore

/// Everything a pupil or teacher finds in a laptop's store, read through the
/// store's own API, as plain JSON values: sketches with their strokes and
/// names, what waits to be sent, grades, profiles, class settings, word
/// lists and their classes, game results (filed or kept on the laptop) and
/// how far the laptop has pulled. `StoreUpgradeTests` compares a fixture's
/// snapshot, taken by the release that made it, with what today's store
/// reads from the upgraded file. The same file is built into that
/// release's maker (scripts/make-store-fixture.sh), so it uses only what
/// every release's store offers.
enum StoreSnapshot {
    static let accounts = ["0b9a3c1e-5f1d-4c0e-9a51-3d2b7f4e6a10", "7c2e1d4b-8a3f-4b6e-b1c9-2f5a9d8e3c21"]
    static let classID = "3f8e2a1c-6b4d-4e9f-a2c7-5d1b8e9f0a32"
    static let cursorKey = "school|0b9a3c1e-5f1d-4c0e-9a51-3d2b7f4e6a10"

    static func take(_ store: LocalStore) throws -> [String: Any] {
        var sketches: [[String: Any]] = []
        for summary in try store.sketches().sorted(by: { $0.id.uuidString < $1.id.uuidString }) {
            let document = try store.loadSketch(summary.id)
            // Each visible stroke by what a child sees of it: where it
            // starts and ends, its colour and width, who drew it.
            let strokes = document.strokes.map { stroke in
                let end = stroke.segments.last?.end ?? stroke.start
                return "\(stroke.id.uuidString) \(stroke.author) \(stroke.start.x),\(stroke.start.y) "
                    + "\(end.x),\(end.y) \(stroke.segments.count) \(stroke.width) "
                    + "\(stroke.color.r) \(stroke.color.g) \(stroke.color.b) \(stroke.color.a)"
            }
            sketches.append(["id": summary.id.uuidString, "name": summary.name, "opCount": summary.opCount,
                             "strokes": strokes, "thumbnail": summary.thumbnail?.count ?? 0])
        }
        var grades: [String: Any] = [:]
        for (id, grade) in try store.allGrades() {
            grades[id] = ["grade": grade.grade ?? -1, "comment": grade.comment, "target": "\(grade.targetId)"]
        }
        var profiles: [String: Any] = [:]
        for account in accounts {
            if let profile = try store.profile(accountID: account) { profiles[account] = profile.name }
        }
        var pools: [[String: Any]] = []
        for pool in try store.pools() where !pool.id.hasPrefix("builtin") {
            pools.append(["id": pool.id, "name": pool.name, "words": pool.items.map(\.word),
                          "classes": try store.assignedClasses(poolID: pool.id)])
        }
        var players: [String: Any] = [:]
        for name in try store.wordPostPlayers() {
            let record = try store.stats(forPlayer: name)
            players[name] = ["words": record.rounds.map(\.word).sorted(), "finished": record.wordsFinished]
        }
        let settings = try store.classSettings(classID: classID)
        return [
            "sketches": sketches,
            "outbox": try store.pendingOutbox(limit: 1000).map { $0.opId.uuidString }.sorted(),
            "grades": grades,
            "profiles": profiles,
            "soundsOn": settings.map { $0.soundsOn ? 1 : 0 } ?? -1,
            "pools": pools.sorted { "\($0["id"] ?? "")" < "\($1["id"] ?? "")" },
            "players": players,
            "unfiled": try store.unfiledResults().count,
            "cursor": try store.syncCursor(for: cursorKey),
        ]
    }
}
