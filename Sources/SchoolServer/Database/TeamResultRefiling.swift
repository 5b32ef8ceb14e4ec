import Foundation

/// Before results named their player's account, the server filed every
/// result under the account that pushed it, so the rounds of a team game
/// all became the host's. A result whose player name is a classmate of its
/// pusher (the name compared as sign-in compares it) is that classmate's;
/// a name that matches nobody in the class stays where it was.
enum TeamResultRefiling {
    /// Results are read this many at a time, so a school's years of games
    /// never sit in memory at once.
    static let page = 2000

    static func statements(_ db: any ServerDatabase) async throws -> [SQLStatement] {
        var classOf: [String: String] = [:]
        var pupil: [String: String] = [:]
        for row in try await db.query("SELECT id, classId, nameKey FROM account WHERE role = 'pupil' AND classId IS NOT NULL") {
            let id = try row.text("id"), classID = try row.text("classId")
            classOf[id] = classID
            pupil[classID + "\n" + (try row.text("nameKey"))] = id
        }
        var updates: [SQLStatement] = []
        var after: Int64 = 0
        while true {
            let rows = try await db.query("""
                SELECT seq, opId, authorId, payload FROM change
                WHERE entity = 'wordPostRoundStat' AND subjectId = authorId AND seq > ? ORDER BY seq LIMIT ?
                """, [.int(after), .int(Int64(page))])
            for row in rows {
                after = try row.int("seq")
                let author = try row.text("authorId")
                guard let classID = classOf[author],
                      let name = try? JSONDecoder().decode(Named.self, from: Data(try row.text("payload").utf8)).playerName,
                      let key = PersonName(name)?.key,
                      let player = pupil[classID + "\n" + key], player != author else { continue }
                updates.append(SQLStatement("UPDATE change SET subjectId = ? WHERE opId = ?",
                                            [.text(player), .text(try row.text("opId"))]))
            }
            if rows.count < page { break }
        }
        return updates
    }

    private struct Named: Decodable { var playerName: String }
}
