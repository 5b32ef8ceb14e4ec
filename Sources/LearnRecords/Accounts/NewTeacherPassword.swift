/// Whether a password a teacher types for an account (their own new one,
/// or the one the school's admin gives a teacher) is one the school server
/// takes: 8 to 72 characters, counted as the API's schema counts them (in
/// Unicode scalars), and, where it is typed twice, the same both times.
public enum NewTeacherPassword: Equatable, Sendable {
    case tooShort
    case tooLong
    case notTheSame

    public static let minCharacters = 8
    public static let maxCharacters = 72

    /// Nil when the server will take it.
    public static func problem(_ password: String, repeated: String? = nil) -> NewTeacherPassword? {
        if password.unicodeScalars.count < minCharacters { return .tooShort }
        if password.unicodeScalars.count > maxCharacters { return .tooLong }
        if let repeated, repeated != password { return .notTheSame }
        return nil
    }
}
