import Foundation

/// What a teacher hands out so a new device may list a class's pupils for
/// signing in: eight characters from an alphabet without look-alikes (no
/// 0/O, 1/I/L, 2/Z, 5/S, 6/G, 8/B), shown as `ABCD-EFGH`. 23⁸ codes, and
/// wrong ones are counted like wrong passwords, so guessing one is out of
/// reach; a class's names are no secret from its classroom, only from
/// everyone else on the network.
public struct ClassCode: Sendable, Hashable {
    public static let alphabet = Array("ACDEFHJKMNPQRTUVWXY3479")
    public static let length = 8

    /// The eight characters, without the dash.
    public let text: String

    /// A code as someone typed it: any case, with spaces or dashes; nil
    /// when it cannot be one.
    public init?(typed: String) {
        guard typed.utf8.count <= 40 else { return nil }
        let kept = typed.uppercased().filter { $0 != "-" && $0 != " " }
        guard kept.count == Self.length, kept.allSatisfy(Self.alphabet.contains) else { return nil }
        text = kept
    }

    public static func random() -> ClassCode {
        var generator = SystemRandomNumberGenerator()
        return ClassCode(typed: String((0..<length).map { _ in alphabet.randomElement(using: &generator)! }))!
    }

    /// As the teacher reads it out: two groups of four.
    public var shown: String { String(text.prefix(4)) + "-" + String(text.suffix(4)) }
}
