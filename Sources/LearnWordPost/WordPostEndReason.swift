/// Why a game ended.
public enum WordPostEndReason: String, Hashable, Codable, Sendable {
    /// Not enough unused words left for every player in another round.
    case poolEmpty
    case hostEnded
    case allLeft
}
