import LearnModel

/// The rule for names teachers type for themselves, classes and pupils:
/// the desktop's name rule (no control or direction characters, trimmed),
/// at most 64 characters; the key that makes "Anna" and "anna" the same
/// name for sign-in.
public struct PersonName: Sendable, Hashable {
    public static let maxCharacters = 64

    public let text: String
    public var key: String { text.lowercased() }

    /// Nil when nothing visible is left or the name is too long.
    public init?(_ typed: String) {
        let cleaned = DisplayName.cleaned(typed, maxBytes: 4 * Self.maxCharacters)
        guard !cleaned.isEmpty, cleaned.count <= Self.maxCharacters else { return nil }
        text = cleaned
    }
}
