import Foundation
import GRDB
import LearnModel

extension LocalStore {
    /// Every profile this computer knows (signed-in pupils' names and the
    /// pictures they drew, synced from the school server), by account id,
    /// for the teacher's lists to find authors' pictures. A record that no
    /// longer decodes or breaks the rules is left out.
    public func profiles() throws -> [String: ProfileRecord] {
        try writer.read { db in
            var found: [String: ProfileRecord] = [:]
            let rows = try Row.fetchCursor(db, sql: "SELECT accountId, record FROM profile")
            while let row = try rows.next() {
                let data: Data = row["record"]
                guard let record = try? JSONDecoder().decode(ProfileRecord.self, from: data), record.problem == nil
                else { continue }
                found[row["accountId"]] = record
            }
            return found
        }
    }
}
