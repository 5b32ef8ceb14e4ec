import Foundation
import LearnModel

/// Whether a session hosted here is also offered through the school
/// server, and for which class. A pupil's session is for the pupil's own
/// class (the server knows it). A teacher names one of their classes:
/// the only one at once, or the one they pick when there are several.
/// Without a sign-in, or when a teacher's classes cannot be read, the
/// session stays on the room's network alone.
public enum RelayOfferPlan: Equatable, Sendable {
    case none
    case offer(classID: SchoolClassID?)
    case chooseClass([ClassChoice])

    public struct ClassChoice: Equatable, Sendable {
        public var id: SchoolClassID
        public var name: String
        public init(id: SchoolClassID, name: String) { self.id = id; self.name = name }
    }

    /// `teacherClasses`: the teacher's classes in use (not archived), nil
    /// when they could not be read.
    public static func make(signIn: SchoolSignIn?, teacherClasses: [ClassChoice]?, now: Date) -> RelayOfferPlan {
        guard let signIn, signIn.isValid(at: now), signIn.relayEndpoint != nil else { return .none }
        guard signIn.isTeacher else { return signIn.classID == nil ? .none : .offer(classID: nil) }
        guard let classes = teacherClasses, !classes.isEmpty else { return .none }
        if classes.count == 1 { return .offer(classID: classes[0].id) }
        return .chooseClass(classes.sorted { $0.name.localizedStandardCompare($1.name) == .orderedAscending })
    }
}
