import Foundation

/// What the app shows, quietly, about sync. Nothing waits on it: drawing
/// and playing go on whatever it says.
public enum SyncStatus: Sendable, Equatable {
    /// No server chosen or nobody signed in: the device works alone.
    case off
    /// Everything made here is on the server, as of `at`.
    case synced(at: Date)
    /// Changes wait to be sent (syncing now or soon).
    case waiting(count: Int)
    /// The server has not answered since `since`; `waiting` changes are kept.
    case unreachable(since: Date, waiting: Int)
    /// The server takes nothing more from this account until `quota`
    /// frees; `waiting` changes are kept here until then.
    case held(ServerQuota, waiting: Int)
    /// The server's disk is full; `waiting` changes are kept here until it
    /// takes them again.
    case serverFull(waiting: Int)
    /// The server no longer accepts this sign-in.
    case signedOut
}
