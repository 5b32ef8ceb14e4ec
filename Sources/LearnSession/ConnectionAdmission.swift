/// Which new TCP connections a host keeps. A connection costs the host a
/// socket, buffers and a place in the lobby before anyone has looked at it,
/// so one machine gets a handful (a pupil's app rejoining briefly holds two)
/// and the whole classroom a bounded number. Whatever is over a cap is closed
/// at once, before a byte of it is read.
public struct ConnectionAdmission: Sendable {
    public static let defaultMaxPerSource = 4
    public static let defaultMaxTotal = 64

    public enum Refusal: Hashable, Sendable, CustomStringConvertible {
        case tooManyFromSource(Int)
        case tooManyInTotal(Int)

        public var description: String {
            switch self {
            case .tooManyFromSource(let n): "more than \(n) connections from one address"
            case .tooManyInTotal(let n): "more than \(n) connections in all"
            }
        }
    }

    public let maxPerSource: Int
    public let maxTotal: Int
    public private(set) var total = 0
    private var bySource: [String: Int] = [:]

    public init(maxPerSource: Int = defaultMaxPerSource, maxTotal: Int = defaultMaxTotal) {
        self.maxPerSource = max(1, maxPerSource)
        self.maxTotal = max(1, maxTotal)
    }

    public enum Decision: Hashable, Sendable {
        case admitted
        /// Every place is taken, but this connection has said nothing yet:
        /// close it (and `release` it), then ask again. A real app says
        /// hello at once, so strangers who connect and stay silent cannot
        /// keep anyone out, even before their hello timeout.
        case makeRoom(closing: ConnectionID)
        case refused(Refusal)
    }

    /// Counts the connection in, or says why it must be closed (then it is
    /// not counted and needs no `release`). `silent`: the connections that
    /// have not said hello, oldest first.
    public mutating func admit(source: String, silent: [ConnectionID] = []) -> Decision {
        let n = bySource[source, default: 0]
        guard n < maxPerSource else { return .refused(.tooManyFromSource(maxPerSource)) }
        guard total < maxTotal else {
            if let oldest = silent.first { return .makeRoom(closing: oldest) }
            return .refused(.tooManyInTotal(maxTotal))
        }
        bySource[source] = n + 1
        total += 1
        return .admitted
    }

    /// An admitted connection has closed.
    public mutating func release(source: String) {
        guard let n = bySource[source] else { return }
        if n <= 1 { bySource[source] = nil } else { bySource[source] = n - 1 }
        total -= 1
    }

    public func count(from source: String) -> Int { bySource[source, default: 0] }
}
