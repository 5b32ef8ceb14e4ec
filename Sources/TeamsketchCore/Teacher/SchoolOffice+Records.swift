import Foundation
import LearnModel

/// What the school server tells the teacher's window, as plain values.
extension SchoolOffice {
    /// One of the teacher's classes.
    public struct SchoolClass: Sendable, Equatable {
        public var id: SchoolClassID
        public var name: String
        public var pupilCount: Int
        /// Put away: its pupils cannot sign in; listed only when asked for.
        public var archived: Bool = false
        /// What the teacher hands out so a new device shows the class
        /// (`ABCD-EFGH`).
        public var code: String?
        /// The class's key for its watchers, which the teacher's wall
        /// proves to a group's host (`WatchProof`).
        public var watchKey: String?

        public init(id: SchoolClassID, name: String, pupilCount: Int, archived: Bool = false, code: String? = nil,
                    watchKey: String? = nil) {
            self.id = id
            self.name = name
            self.pupilCount = pupilCount
            self.archived = archived
            self.code = code
            self.watchKey = watchKey
        }
    }

    /// A pupil of one of the teacher's classes, as the class list shows it.
    public struct Pupil: Sendable, Equatable {
        public var id: AccountID
        public var name: String
        public var hasPicturePassword: Bool
        /// A quota the pupil reached: their laptop keeps what the server
        /// would not take.
        public var quotaReached: ServerQuota?
        /// Wrong picture tries for the pupil today, from any device.
        public var failedSignInsToday: Int

        public init(id: AccountID, name: String, hasPicturePassword: Bool, quotaReached: ServerQuota? = nil,
                    failedSignInsToday: Int = 0) {
            self.id = id
            self.name = name
            self.hasPicturePassword = hasPicturePassword
            self.quotaReached = quotaReached
            self.failedSignInsToday = failedSignInsToday
        }
    }

    /// A teacher account, as the school's admin sees it.
    public struct Teacher: Sendable, Equatable {
        public var id: AccountID
        public var name: String
        public var isAdmin: Bool
        public var classCount: Int

        public init(id: AccountID, name: String, isAdmin: Bool, classCount: Int) {
            self.id = id
            self.name = name
            self.isAdmin = isAdmin
            self.classCount = classCount
        }
    }

    /// What the server holds of a pupil, counted: what removing them erases.
    public struct Footprint: Sendable, Equatable {
        public var name: String
        /// Started alone: erased with the pupil.
        public var sketches: Int
        /// Shared with classmates who drew too: kept for them.
        public var teamSketches: Int
        public var gameRounds: Int
        public var grades: Int

        public init(name: String, sketches: Int, teamSketches: Int, gameRounds: Int, grades: Int) {
            self.name = name
            self.sketches = sketches
            self.teamSketches = teamSketches
            self.gameRounds = gameRounds
            self.grades = grades
        }
    }

    /// Why the server did not make a change to people; the window says it
    /// in the teacher's language (the server's messages are English).
    public enum Refusal: Error, Sendable, Equatable {
        /// A name taken, a class full or archived (409).
        case conflict
        /// Not the caller's to change, or, for their own password, the
        /// current one was not right (403).
        case forbidden
        case notFound
        /// A name or password the server does not take (400).
        case badRequest
        case tooManyTries
        case connection(SchoolConnectionError)
    }
}
