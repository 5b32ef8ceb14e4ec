import Foundation

/// The one rule for a name a person typed that others will see: in lobbies,
/// on strokes, in discovery announcements, on the headless host's terminal.
///
/// Control characters and line breaks go (they would break a row, a log line
/// or a terminal), and so do the invisible characters that reorder text —
/// the bidirectional embeddings, overrides and isolates and the left-to-right
/// and right-to-left marks — with which "Anna" could be made to show as
/// someone else's name or a name could swallow what is printed after it.
/// Other format characters stay: emoji sequences need the zero-width joiner.
/// The result is cut at a character boundary to `maxBytes` of UTF-8 and
/// trimmed after the cut, so cleaning a cleaned name changes nothing (what a
/// host announces is what a listener decodes and announces again).
public enum DisplayName {
    /// UTF-8 bytes a name may take: a member's, a sketch's, an author's.
    public static let maxBytes = 256
    /// Characters a name may have in a sketch file.
    public static let maxScalars = 200

    public static func cleaned(_ name: String, maxBytes: Int, maxScalars: Int = .max) -> String {
        let kept = String(String.UnicodeScalarView(name.unicodeScalars.filter { !isHidden($0) }))
            .trimmingCharacters(in: .whitespacesAndNewlines)
        var cut = truncated(kept, maxBytes: maxBytes)
        if cut.unicodeScalars.count > maxScalars {
            var scalars = 0
            cut = String(cut.prefix { ch in
                scalars += ch.unicodeScalars.count
                return scalars <= maxScalars
            })
        }
        return cut.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// A member's or author's name on the session: at most 256 bytes, and
    /// at most as many characters as a sketch file allows for a name, so a
    /// sketch made together always opens again as a file.
    public static func member(_ name: String) -> String {
        cleaned(name, maxBytes: maxBytes, maxScalars: maxScalars)
    }

    /// How two names are told apart: cleaned as a member's name, case
    /// ignored, so "anna " on a stroke or in a lobby is Anna.
    public static func key(_ name: String) -> String {
        member(name).lowercased()
    }

    /// `s` cut to at most `maxBytes` of UTF-8 at a character boundary.
    public static func truncated(_ s: String, maxBytes: Int) -> String {
        if s.utf8.count <= maxBytes { return s }
        var out = ""
        var used = 0
        for ch in s {
            let n = ch.utf8.count
            if used + n > maxBytes { break }
            out.append(ch)
            used += n
        }
        return out
    }

    static func isHidden(_ s: Unicode.Scalar) -> Bool {
        switch s.value {
        case 0x200E, 0x200F,        // left-to-right and right-to-left marks
             0x202A...0x202E,       // embeddings, pop, overrides
             0x2066...0x2069:       // isolates and their pop
            return true
        default:
            switch s.properties.generalCategory {
            case .control, .lineSeparator, .paragraphSeparator: return true
            default: return false
            }
        }
    }
}
