import Foundation
import LearnBasics
import LearnSketch

/// A session's sign: two pictures a six-year-old can name and a colour,
/// worked out from the session id alone. The host's lobby and every join
/// card show it, so a pupil matches the card to the screen at the front by
/// looking, not by reading a number. Every device works it out the same
/// way (our own hash, not Swift's per-process `Hasher`).
///
/// It tells sessions apart; it is no secret. A copy that repeats a real
/// session's id gets the same sign, which is why such a card carries its
/// own warning (`DiscoveredSession.isCopy`).
public struct SessionSign: Hashable, Sendable, CustomStringConvertible {
    /// Shapes simple enough to draw in a few strokes and to name aloud.
    public enum Picture: Int, CaseIterable, Hashable, Sendable {
        case sun, moon, star, heart, tree, flower, fish, house
        case boat, apple, cat, mushroom, umbrella, balloon, car, snail

        /// The English word, for logs and tests; screens use their own
        /// translated names.
        public var word: String { String(describing: self) }
    }

    /// Colours children know by name and tell apart at a glance; none
    /// close to the lobby's green ✓ or blue Start, so a sign never looks
    /// like a button.
    public enum Colour: Int, CaseIterable, Hashable, Sendable {
        case red, orange, yellow, green, blue, purple, pink, brown

        public var rgba: RGBA {
            switch self {
            case .red: RGBA(hex: 0xD7263D)
            case .orange: RGBA(hex: 0xF08A24)
            case .yellow: RGBA(hex: 0xF2C811)
            case .green: RGBA(hex: 0x43A83A)
            case .blue: RGBA(hex: 0x1F4FB4)
            case .purple: RGBA(hex: 0x8A3FC1)
            case .pink: RGBA(hex: 0xF06EAA)
            case .brown: RGBA(hex: 0x8B5A2B)
            }
        }

        public var word: String { String(describing: self) }
    }

    /// The pictures in the order shown, `first` before `second` in
    /// `Picture` order: "sun and tree" and "tree and sun" are one sign,
    /// because a child would not tell them apart.
    public let first: Picture
    public let second: Picture
    public let colour: Colour

    /// Every pair of different pictures, in a fixed order.
    static let pairs: [(Picture, Picture)] = Picture.allCases.flatMap { a in
        Picture.allCases.filter { $0.rawValue > a.rawValue }.map { (a, $0) }
    }

    /// How many signs there are (120 pairs × 8 colours).
    public static var count: Int { pairs.count * Colour.allCases.count }

    public init(first: Picture, second: Picture, colour: Colour) {
        precondition(first != second, "a sign shows two different pictures")
        self.first = min(first, second)
        self.second = max(first, second)
        self.colour = colour
    }

    /// The sign of a session id as announced (case does not matter: a host
    /// writes its UUID in lowercase, a typed or foreign id may differ).
    public init(sessionID: String) {
        let n = Self.hash(sessionID.lowercased())
        let pair = Self.pairs[Int(n % UInt64(Self.pairs.count))]
        let colour = Colour.allCases[Int((n / UInt64(Self.pairs.count)) % UInt64(Colour.allCases.count))]
        self.init(first: pair.0, second: pair.1, colour: colour)
    }

    public init(sessionID: UUID) { self.init(sessionID: sessionID.uuidString) }

    /// "red sun tree": the log line the UI tests read.
    public var description: String { "\(colour.word) \(first.word) \(second.word)" }

    /// One of the pictures for any id, the same on every device: a word
    /// list's mark, so a child finds the class's list without reading.
    public static func picture(for id: String) -> Picture {
        Picture.allCases[Int(hash(id.lowercased()) % UInt64(Picture.allCases.count))]
    }

    /// FNV-1a over the bytes, then SplitMix64's finaliser so that ids
    /// differing in one character land far apart.
    static func hash(_ text: String) -> UInt64 {
        var h: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in text.utf8 {
            h ^= UInt64(byte)
            h = h &* 0x0000_0100_0000_01B3
        }
        var mix = SplitMix64(seed: h)
        return mix.next()
    }
}

extension SessionSign.Picture: Comparable {
    public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }
}
