import LearnModel

/// The rule for names teachers type for themselves, classes and pupils:
/// the desktop's name rule (no control or direction characters, trimmed),
/// at most 64 characters; the key that makes "Anna" and "anna" the same
/// name for sign-in.
public struct PersonName: Sendable, Hashable {
    public static let maxCharacters = 64

    public let text: String
    public var key: String { text.lowercased() }

    /// Nil when nothing visible is left or the name is too long (counted
    /// before anything is cut, so a long name is refused, not shortened;
    /// the byte cap keeps characters built of many marks in bounds).
    public init?(_ typed: String) {
        guard typed.utf8.count <= Self.maxBytes * 4 else { return nil }
        let cleaned = DisplayName.cleaned(typed, maxBytes: .max)
        guard !cleaned.isEmpty, cleaned.count <= Self.maxCharacters, cleaned.utf8.count <= Self.maxBytes else { return nil }
        text = cleaned
    }

    public static let maxBytes = 512
}
