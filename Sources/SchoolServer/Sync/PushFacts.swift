import Foundation

/// What the database knows that decides whether a push's changes may be
/// stored, read in a few queries before deciding. `ChangeRules` updates it
/// as it accepts changes, so a sketch created early in a batch is known to
/// the ops after it.
public struct PushFacts: Sendable {
    public struct Person: Sendable, Hashable {
        public var id: UUID
        public var isPupil: Bool
        public var classID: UUID?
        /// The teacher of the pupil's class.
        public var teacherID: UUID?

        public init(id: UUID, isPupil: Bool, classID: UUID?, teacherID: UUID? = nil) {
            self.id = id; self.isPupil = isPupil; self.classID = classID; self.teacherID = teacherID
        }
    }

    public struct SketchFacts: Sendable {
        /// Who started it (nil only for a sketch whose first change the
        /// server no longer knows the author of).
        public var creator: Person?
        /// Who draws in it: the creator and the members named since.
        public var members: [Person]
        /// Drawn in a LAN session: the host's members may be named.
        public var team: Bool
        /// When the server stored its deletion (Unix ms); nil while it is not deleted.
        public var deletedAt: Int64?
        public var deleted: Bool { deletedAt != nil }
        /// Ops the server holds of it (and the batch accepted so far).
        public var opCount: Int64

        public init(creator: Person?, members: [Person], team: Bool, deletedAt: Int64? = nil, opCount: Int64 = 0) {
            self.creator = creator; self.members = members; self.team = team; self.deletedAt = deletedAt
            self.opCount = opCount
        }
    }

    /// What an op id was first stored with. `payloadHash` is nil for
    /// changes stored before hashes were kept.
    public struct StoredOp: Sendable, Equatable {
        public var entity: SyncChange.Entity
        public var entityKey: String
        public var payloadHash: String?

        public init(entity: SyncChange.Entity, entityKey: String, payloadHash: String?) {
            self.entity = entity; self.entityKey = entityKey; self.payloadHash = payloadHash
        }
    }

    /// An assignment the server keeps: whose class, whose it is, for whom.
    public struct AssignmentFacts: Sendable, Equatable {
        public var classID: UUID
        /// The teacher who set it.
        public var ownerID: UUID
        /// The pupils it is for; nil for the whole class.
        public var pupils: Set<UUID>?
        public var deleted: Bool

        public init(classID: UUID, ownerID: UUID, pupils: Set<UUID>?, deleted: Bool) {
            self.classID = classID; self.ownerID = ownerID; self.pupils = pupils; self.deleted = deleted
        }
    }

    /// Classes the pusher teaches (empty for a pupil).
    public var taughtClasses: Set<UUID> = []
    /// Sketches named by the batch that the server has, with their members.
    public var sketches: [String: SketchFacts] = [:]
    public var poolOwners: [String: Person] = [:]
    public var gradeOwners: [String: UUID] = [:]
    /// Assignments the batch sets or answers that the server has.
    public var assignments: [String: AssignmentFacts] = [:]
    /// Accounts a grade, a profile, a result, an assignment or a sketch's
    /// creation or member in the batch is about.
    public var people: [UUID: Person] = [:]
    /// What the server already stored under an op id the batch names
    /// (and what the batch accepted so far).
    public var storedOps: [UUID: StoredOp] = [:]

    /// The server's time of the push (Unix ms).
    public var now: Int64 = 0

    public init() {}
}
