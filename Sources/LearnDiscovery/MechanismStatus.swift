/// Why a discovery mechanism doesn't (fully) work, for the lobby's
/// diagnostics view: "nothing found" must never hide "can't look".
public enum MechanismProblem: Sendable, Hashable, CustomStringConvertible {
    /// No avahi-daemon (or no system D-Bus) to talk to.
    case daemonNotRunning
    /// The name is taken on the network (our service name, or the daemon's
    /// host name).
    case nameCollision(String)
    /// Another program holds the beacon port without sharing it.
    case portInUse(Int)
    /// The kernel has no route for 224.0.0.0/4 (e.g. no network at all, or an
    /// interface without the MULTICAST flag); broadcast may still work.
    case noMulticastRoute
    /// No network interface to send on.
    case noNetwork
    /// The OS or a firewall refused (EACCES/EPERM).
    case permissionDenied
    /// Anything else, with the library's own words (avahi_strerror, strerror).
    case failure(String)

    public var description: String {
        switch self {
        case .daemonNotRunning: "daemon not running"
        case .nameCollision(let n): "name collision (\(n))"
        case .portInUse(let p): "port \(p) in use"
        case .noMulticastRoute: "no multicast route"
        case .noNetwork: "no network"
        case .permissionDenied: "permission denied"
        case .failure(let t): "failure: \(t)"
        }
    }
}

/// The state of one discovery mechanism.
public enum MechanismStatus: Sendable, Hashable, CustomStringConvertible {
    case off
    case starting
    case running
    /// Works, but only in part (e.g. beacon broadcast works, multicast not).
    case limited(MechanismProblem)
    case unavailable(MechanismProblem)

    public var problem: MechanismProblem? {
        switch self {
        case .limited(let p), .unavailable(let p): p
        case .off, .starting, .running: nil
        }
    }

    public var isUsable: Bool {
        switch self {
        case .running, .limited: true
        case .off, .starting, .unavailable: false
        }
    }

    public var description: String {
        switch self {
        case .off: "off"
        case .starting: "starting"
        case .running: "running"
        case .limited(let p): "limited: \(p)"
        case .unavailable(let p): "unavailable: \(p)"
        }
    }

    /// One status for a mechanism made of two parts (the beacon's listener
    /// and announcer): running only if both run; unavailable only if both
    /// are; otherwise limited by the first problem.
    public func combined(with other: MechanismStatus) -> MechanismStatus {
        switch (self, other) {
        case (.off, _): return other
        case (_, .off): return self
        case (.unavailable(let p), .unavailable): return .unavailable(p)
        case (.starting, _), (_, .starting): return .starting
        case (.running, .running): return .running
        default: return .limited((problem ?? other.problem)!)
        }
    }
}
