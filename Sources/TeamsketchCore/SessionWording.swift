import LearnModel

/// What a member is told when the host lets them in, sends them away or
/// the session ends, in one activity's own words ("four painters", "four players").
/// Each activity gives its lines in one place (the app translates them);
/// which line answers which reason is decided here, once for all.
public struct SessionWording: Equatable, Sendable {
    /// The host let this device in; the start is still to come.
    public var letIn: String
    /// The session has all the members it takes.
    public var full: String
    /// This app and the host speak different protocol versions.
    public var wrongVersion: String
    /// Asked to join a session that is already over.
    public var alreadyOver: String
    /// Too many joiners are waiting for the host already.
    public var lobbyFull: String
    /// The host said no (or gave a reason this app does not know).
    public var sentAway: String
    public var ended: String
    public var timeUp: String
    public var hostLeft: String

    /// `timeUp` defaults to `ended` for activities without a time limit.
    public init(letIn: String, full: String, wrongVersion: String, alreadyOver: String, lobbyFull: String, sentAway: String,
                ended: String, timeUp: String? = nil, hostLeft: String) {
        self.letIn = letIn
        self.full = full
        self.lobbyFull = lobbyFull
        self.wrongVersion = wrongVersion
        self.alreadyOver = alreadyOver
        self.sentAway = sentAway
        self.ended = ended
        self.timeUp = timeUp ?? ended
        self.hostLeft = hostLeft
    }

    public func text(for reason: DeclineReason) -> String {
        switch reason {
        case .full: full
        case .protocolMismatch: wrongVersion
        case .sessionEnded: alreadyOver
        case .lobbyFull: lobbyFull
        case .byHost, .other: sentAway
        }
    }

    public func text(for reason: EndReason) -> String {
        switch reason {
        case .hostEnded: ended
        case .timeUp: timeUp
        case .hostLeft: hostLeft
        }
    }
}
