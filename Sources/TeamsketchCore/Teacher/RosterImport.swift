import Foundation

/// Adding a class list (a file's names, `RosterCSV`) to a class on the
/// school server.
///
/// - A name already in the class is left out, whatever its case: the same
///   list imported twice adds nobody twice, and "mia" is Mia. (A name
///   twice in one file is the file reader's to refuse: `RosterCSV`.)
/// - Names are added one at a time, in the file's order; the first that
///   fails stops the import (the server stopped answering, or the class is
///   full), and the teacher is told how many got in.
public enum RosterImport {
    public struct Outcome: Equatable, Sendable {
        public var added: Int
        /// How many names were not yet in the class.
        public var wanted: Int
        /// The names left out because the class has them.
        public var already: [String]

        public init(added: Int, wanted: Int, already: [String]) {
            self.added = added; self.wanted = wanted; self.already = already
        }
    }

    /// `present`: the class's names now; a failure there fails the import
    /// before anyone is added. `add`: adds one pupil.
    public static func run(_ names: [String], present: () async throws -> [String],
                           add: (String) async throws -> Void) async throws -> Outcome {
        let inClass = Set(try await present().map { $0.lowercased() })
        let (new, already) = names.reduce(into: ([String](), [String]())) { split, name in
            if inClass.contains(name.lowercased()) { split.1.append(name) } else { split.0.append(name) }
        }
        var added = 0
        for name in new {
            do {
                try await add(name)
            } catch {
                break
            }
            added += 1
        }
        return Outcome(added: added, wanted: new.count, already: already)
    }
}
