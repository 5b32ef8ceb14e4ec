import Foundation
import LearnModel

/// What a shared laptop asks the school server when a pupil signs in: the
/// classes, the pupils of one, and the sign-in with three pictures. The
/// live version is the desktop's school client; tests pass closures.
public struct PupilDirectory: Sendable {
    /// A class or a pupil to tap: its id and its name.
    public struct Choice<Kind>: Equatable, Hashable, Sendable, Identifiable {
        public var id: ID<Kind>
        public var name: String
        public init(id: ID<Kind>, name: String) { self.id = id; self.name = name }
    }
    public typealias ClassChoice = Choice<IDKind.SchoolClass>
    public typealias PupilChoice = Choice<IDKind.Account>

    public enum Failure: Error, Equatable, Sendable {
        /// Any error as a pupil's screen tells it.
        public init(_ error: any Error) { self = error as? Failure ?? .unreachable }

        /// The pictures do not match.
        case wrongPictures
        /// Too many wrong tries; the server asks to wait.
        case tooManyTries
        /// The server did not answer or answered something unexpected.
        case unreachable
        /// No class has the code typed.
        case unknownCode
        /// This device may not list the class (it has not seen it, or it
        /// is gone): choose again, or type its code.
        case unknownClass
    }

    // Each throws a `Failure` (closures with typed throws do not compose
    // well yet; callers read any other error as `.unreachable`).
    /// The classes this device may list, and the one a typed code names.
    public var classes: @Sendable (_ code: String?) async throws -> [ClassChoice]
    public var pupils: @Sendable (_ classID: SchoolClassID) async throws -> [PupilChoice]
    public var signIn: @Sendable (_ pupilID: AccountID, _ pictures: [Int]) async throws -> SchoolSignIn
    /// Lets go of the connection when the screen asking is done with it.
    public var close: @Sendable () async -> Void = {}

    public init(classes: @escaping @Sendable (String?) async throws -> [ClassChoice],
                pupils: @escaping @Sendable (SchoolClassID) async throws -> [PupilChoice],
                signIn: @escaping @Sendable (AccountID, [Int]) async throws -> SchoolSignIn) {
        self.classes = classes
        self.pupils = pupils
        self.signIn = signIn
    }
}
