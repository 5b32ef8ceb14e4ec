import Foundation

/// One frame of an activity's own (a word-game move, a maths answer …). The
/// session core only carries it: the type byte and the payload mean what the
/// session's activity says, so a new activity adds frames without touching
/// the codec. Only one activity runs in a session, so two activities may
/// use the same type numbers.
public struct ActivityMessage: Hashable, Sendable {
    /// Frame types reserved for activities.
    public static let types: ClosedRange<UInt8> = 48...63

    public var type: UInt8
    public var payload: [UInt8]

    /// `type` must be one of `types`: an activity choosing another number is
    /// a programming error, caught on its first frame.
    public init(type: UInt8, payload: [UInt8]) {
        precondition(Self.types.contains(type), "activity frame types are \(Self.types), not \(type)")
        self.type = type
        self.payload = payload
    }
}

/// An activity's payload could not be read: the connection it came on is
/// closed, as for a malformed frame of the session's own.
public struct ActivityPayloadError: Error, Hashable, Sendable, CustomStringConvertible {
    public var reason: String
    /// The member gives up on this host: the connection closes and is not
    /// opened again. Decided where the frame is read, so no rejoin can slip
    /// in before the member's leaving is carried out.
    public var stopsRejoining: Bool
    public init(_ reason: String, stopsRejoining: Bool = false) {
        self.reason = reason
        self.stopsRejoining = stopsRejoining
    }
    public var description: String { reason }
}
