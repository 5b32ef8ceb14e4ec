import Foundation
import LearnModel

/// Setting a laptop up for one of the teacher's classes, as the first
/// start offers it. The class's code goes to the school server as a pupil
/// would type it, so this laptop may list the class's names for the
/// picture sign-in; the choice is saved; then the teacher is signed out,
/// and the start screen waits for the children. Left before a class was
/// chosen, the teacher is signed out and the server forgotten, so the
/// first start's question comes again until it is answered.
///
/// The live value is the desktop's (over its school link and preferences);
/// tests give closures.
@MainActor
public struct ClassSetUp {
    public enum Outcome: Sendable {
        case done
        /// The server did not take the class's code (or the class has none).
        case refused
        /// The choice could not be saved on this laptop; the teacher stays
        /// signed in to try again.
        case notSaved(any Error)
    }

    /// Gives the class's code to the server; true when it took it.
    public var introduce: (_ code: String) async -> Bool
    /// Keeps the class as this laptop's.
    public var save: (_ classID: SchoolClassID) throws -> Void
    /// Whether this laptop already belongs to a class.
    public var hasClass: () -> Bool
    public var signOut: () -> Void
    /// Forgets the school server a sign-in remembered.
    public var forgetSchool: () throws -> Void

    public init(introduce: @escaping (String) async -> Bool, save: @escaping (SchoolClassID) throws -> Void,
                hasClass: @escaping () -> Bool, signOut: @escaping () -> Void, forgetSchool: @escaping () throws -> Void) {
        self.introduce = introduce
        self.save = save
        self.hasClass = hasClass
        self.signOut = signOut
        self.forgetSchool = forgetSchool
    }

    public func belong(to schoolClass: SchoolOffice.SchoolClass) async -> Outcome {
        guard let code = schoolClass.code, await introduce(code) else { return .refused }
        do {
            try save(schoolClass.id)
        } catch {
            return .notSaved(error)
        }
        signOut()
        return .done
    }

    /// The set-up was left; true when the first start's question must be
    /// asked again (no class was chosen). A server that cannot be
    /// forgotten is only logged by `problem`: the teacher is signed out
    /// either way.
    public func leave(problem: (any Error) -> Void) -> Bool {
        guard !hasClass() else { return false }
        signOut()
        do { try forgetSchool() } catch { problem(error) }
        return true
    }
}
