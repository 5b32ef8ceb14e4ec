import Foundation
import LearnModel

/// Why no port of a list could be bound.
public struct PortSelectionError: Error, Hashable, Sendable, CustomStringConvertible {
    public var ports: [Int]
    /// What binding the last port said.
    public var reason: String

    public var description: String {
        "cannot listen on port \(ports.map(String.init).joined(separator: ", ")): \(reason)"
    }
}

/// Which port a host listens on. The session ports are tried in order and
/// the first free one is taken, because only those ports have join codes;
/// every host (sketch, word game, headless) goes through here.
public enum PortSelection {
    /// The ports with join codes, in the order a host tries them.
    public static var sessionPorts: [Int] { Array(JoinCode.sessionPorts) }

    /// Calls `bind` with each port in turn and returns what the first success
    /// returned. Throws when every port failed.
    public static func firstFree<T: Sendable>(_ ports: [Int] = sessionPorts,
                                              bind: @Sendable (Int) async throws -> T) async throws(PortSelectionError) -> T {
        var last = "no port to try"
        for port in ports {
            do { return try await bind(port) } catch { last = "\(error)" }
        }
        throw PortSelectionError(ports: ports, reason: last)
    }
}
