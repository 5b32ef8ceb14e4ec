import LearnNet

/// How the offer through the school server stands, as the host's lobby
/// shows it.
public enum RelayOfferStatus: Equatable, Sendable {
    case listed
    /// Not listed now; offered again by itself.
    case retrying
    /// The server said no; asking again would not change that.
    case refused

    public init(_ state: RelayOfferState) {
        switch state {
        case .listed: self = .listed
        case .retrying: self = .retrying
        case .refused: self = .refused
        }
    }
}
