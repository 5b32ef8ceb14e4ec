/// Why a resource the app wanted is not used. The app keeps running without
/// it (plain look, no sounds, one word list fewer) and tells the person in
/// front of the screen; `logLine` is the precise version for stderr.
public enum ResourceProblem: Error, Equatable, Sendable {
    /// In none of the searched directories.
    case missing(resource: String, searched: [String])
    /// Found at `path` but not usable.
    case damaged(resource: String, path: String, reason: String)

    /// The resource's path below the resources directory, e.g. `pools/de.json`.
    public var resource: String {
        switch self {
        case .missing(let resource, _), .damaged(let resource, _, _): resource
        }
    }

    public var logLine: String {
        switch self {
        case .missing(let resource, let searched):
            "teamsketch: resource \(resource) not found (searched: \(searched.joined(separator: ", ")))"
        case .damaged(let resource, let path, let reason):
            "teamsketch: resource \(resource) at \(path) is damaged: \(reason)"
        }
    }
}
