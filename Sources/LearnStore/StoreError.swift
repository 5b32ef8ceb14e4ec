import Foundation
import LearnModel

/// Why the local store refused to open a file or to perform a change.
///
/// Descriptions are English source strings; the app translates them. The open
/// errors (`corrupt`, `foreign`, `tooNew`) promise that the file was left
/// exactly as it was, so the user can still rescue or hand it to someone.
public enum StoreError: Error, Hashable, Sendable, CustomStringConvertible, LocalizedError {
    /// The file is not a readable SQLite database (random bytes, truncated,
    /// damaged pages).
    case corrupt(path: String)
    /// A valid SQLite database that belongs to another program.
    case foreign(path: String)
    /// A Teamsketch database written by a newer version of the app, with schema
    /// migrations this version does not know.
    case tooNew(path: String)
    /// The file could not be opened for another reason (permissions, a
    /// directory in the way, a locked file…).
    case cannotOpen(path: String, reason: String)
    /// No sketch with this id, or it was deleted.
    case sketchNotFound(UUID)
    /// A sketch with this id already exists (possibly deleted: ids are never
    /// reused, because sync treats a deletion as final).
    case duplicateSketch(UUID)
    /// A stored op could not be decoded.
    case unreadableOp(sketchID: UUID, seq: Int)
    /// A grade, class settings or profile outside what may be stored.
    case invalidRecord(String)

    public var description: String {
        switch self {
        case .corrupt(let path):
            "The file “\(path)” is damaged or is not a Teamsketch database. It was left unchanged."
        case .foreign(let path):
            "The file “\(path)” is a database of another program. It was left unchanged."
        case .tooNew(let path):
            "The file “\(path)” was saved by a newer version of Teamsketch. Please update the app. The file was left unchanged."
        case .cannotOpen(let path, let reason):
            "The file “\(path)” could not be opened: \(reason)"
        case .sketchNotFound(let id):
            "The sketch \(id.lowercasedText) does not exist or was deleted."
        case .duplicateSketch(let id):
            "A sketch with the id \(id.lowercasedText) already exists."
        case .unreadableOp(let id, let seq):
            "Step \(seq) of the sketch \(id.lowercasedText) could not be read."
        case .invalidRecord(let why):
            "This cannot be saved: \(why)."
        }
    }

    public var errorDescription: String? { description }
}
