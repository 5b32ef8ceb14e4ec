import Foundation

/// The server's idea of now, in Unix milliseconds; tests move it by hand to
/// expire tokens and age failed sign-ins.
public struct ServerClock: Sendable {
    public var now: @Sendable () -> Int64

    public init(now: @escaping @Sendable () -> Int64) { self.now = now }

    public static let live = ServerClock { Int64((Date().timeIntervalSince1970 * 1000).rounded()) }
}
