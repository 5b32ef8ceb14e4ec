import Foundation

/// The lobby's activity block: which activity the session runs and what it
/// tells joiners before the start (the word game's pool, say), as bytes only
/// the activity reads. A joiner picks its screen by `kind`.
public struct ActivityInfo: Hashable, Sendable {
    /// The block's bytes stay far below the frame cap; the lobby is resent
    /// after every change.
    public static let maxBytes = 16 << 10

    public var kind: SessionActivity
    public var bytes: [UInt8]

    public init(kind: SessionActivity, bytes: [UInt8] = []) {
        self.kind = kind
        self.bytes = bytes.count <= Self.maxBytes ? bytes : []
    }
}
