/// Whether a password a teacher types for an account (their own new one,
/// or the one the school's admin gives a teacher) is one the school server
/// takes: 8 to 72 bytes as UTF-8 (bcrypt reads no more, so a longer one
/// would be cut silently), and, where it is typed twice, the same both times.
public enum NewTeacherPassword: Equatable, Sendable {
    case tooShort
    case tooLong
    case notTheSame

    public static let minBytes = 8
    public static let maxBytes = 72

    /// Nil when the server will take it.
    public static func problem(_ password: String, repeated: String? = nil) -> NewTeacherPassword? {
        if password.utf8.count < minBytes { return .tooShort }
        if password.utf8.count > maxBytes { return .tooLong }
        if let repeated, repeated != password { return .notTheSame }
        return nil
    }
}
