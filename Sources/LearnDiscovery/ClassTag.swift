import LearnBasics
import LearnRecords
/// Which class a nearby session belongs to, as its announcement says it
/// (TXT and beacon key `cls`): eight hex digits of a hash of the class's id
/// on the school server, so the teacher's class wall can show the groups of
/// their own class and leave the class next door alone. A tag is no secret
/// and no proof: it only sorts what is on the wall, and the host still
/// lets every watcher in.
public struct ClassTag: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public static let length = 8
    public let rawValue: String

    /// Exactly eight lowercase hex digits.
    public init?(rawValue: String) {
        guard rawValue.utf8.count == Self.length,
              rawValue.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }) else { return nil }
        self.rawValue = rawValue
    }

    /// The tag of a class on the school server (ids compared lowercased, as
    /// the server writes them).
    public init(classID: String) {
        let digest = SHA256.hash(Array("teamsketch class \(classID.lowercased())".utf8))
        let hex = digest.prefix(Self.length / 2).map { byte in
            let digits = Array("0123456789abcdef")
            return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
        }.joined()
        self.rawValue = hex
    }

    public init(class id: SchoolClassID) { self.init(classID: id.text) }

    public var description: String { rawValue }
}
