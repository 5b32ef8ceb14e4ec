import Foundation

/// The version a peer speaks, sent in `hello`. The frame's version byte is
/// the framing format; this one is the conversation. A host declines a hello
/// with another version (`DeclineReason.protocolMismatch`).
public enum SessionProtocol {
    public static let version: UInt16 = 4
    // 4: `accepted` names the sketch (no longer the session's id) and its
    // creator; `hello` may name the joiner's school account.
}

/// What a member does in a session.
public enum PeerRole: UInt8, Sendable, CaseIterable, Codable {
    /// Draws; at most `HostSession.maxDrawers` of them, host included.
    case drawer = 0
    /// Sees everything, draws nothing; any number of them.
    case observer = 1
}

/// Where a member stands in the lobby.
public enum MemberState: UInt8, Sendable, CaseIterable {
    case pending = 0
    case accepted = 1
}

/// The host's index for a member: 0 is the host, the others count up in order
/// of arrival and are never reused within a session. Ops carry it as `sender`.
public typealias MemberIndex = UInt32

/// A random 128-bit secret the host gives each accepted member. Presenting it
/// in a later `hello` restores that member (rejoin) without asking the host
/// again. It is sent only to its owner, so nobody else can take a member's
/// place or draw in its name.
public struct ResumeToken: Hashable, Sendable, CustomStringConvertible {
    public var high: UInt64
    public var low: UInt64

    public init(high: UInt64, low: UInt64) { self.high = high; self.low = low }

    public static func random() -> ResumeToken {
        var g = SystemRandomNumberGenerator()
        return ResumeToken(high: g.next(), low: g.next())
    }

    /// 32 hex digits, for keeping a token across an app restart.
    public var description: String {
        String(high, radix: 16).leftPadded(to: 16) + String(low, radix: 16).leftPadded(to: 16)
    }

    public init?(hex: String) {
        guard hex.utf8.count == 32, let h = UInt64(hex.prefix(16), radix: 16),
              let l = UInt64(hex.suffix(16), radix: 16) else { return nil }
        self.init(high: h, low: l)
    }
}

extension String {
    fileprivate func leftPadded(to n: Int) -> String {
        count >= n ? self : String(repeating: "0", count: n - count) + self
    }
}

/// Who made an op and where it stands in that member's sequence. `sender` is
/// set by the host from the connection the op came in on, never taken from
/// the sender; `seq` counts each member's ops from 1, across rejoins.
public struct OpStamp: Hashable, Sendable {
    public var sender: MemberIndex
    public var seq: UInt64
    public init(sender: MemberIndex, seq: UInt64) { self.sender = sender; self.seq = seq }
}
