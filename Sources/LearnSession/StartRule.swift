import Foundation

/// Who may start an activity: the one place that decides it, for the host
/// session (which refuses an early start), the lobby screen (which offers
/// Start, or Play alone) and the headless host (which starts by itself).
///
/// `players` counts the accepted drawers who are connected now, the host
/// included. Observers never count.
public struct StartRule: Hashable, Sendable {
    /// Players needed to start without asking anything.
    public var minimumPlayers: Int
    /// A host with nobody else in may still start: the button they press
    /// then shows one child and says "Play alone", so nothing asks first
    /// (a question is text a six-year-old cannot read).
    public var mayPlayAlone: Bool

    public init(minimumPlayers: Int, mayPlayAlone: Bool) {
        self.minimumPlayers = max(1, minimumPlayers)
        self.mayPlayAlone = mayPlayAlone
    }

    /// Drawing together needs a second painter; there is nobody to draw with
    /// otherwise, and a lone sketch is made from the home screen.
    public static let sketch = StartRule(minimumPlayers: 2, mayPlayAlone: false)
    /// The word game is a team game, but a child whose classmates are away
    /// may still practise alone by pressing "Play alone".
    public static let wordPost = StartRule(minimumPlayers: 2, mayPlayAlone: true)

    public enum Decision: Hashable, Sendable {
        /// Not yet: this many more players are needed.
        case wait(needed: Int)
        /// Start now.
        case start
        /// Only the host is in, where the activity may be played alone: the
        /// start is "Play alone".
        case startAlone
    }

    public func decide(players: Int) -> Decision {
        if players >= minimumPlayers { return .start }
        if mayPlayAlone && players == 1 { return .startAlone }
        return .wait(needed: minimumPlayers - max(players, 0))
    }

    /// Whether a start may go ahead (the host asked first where it had to).
    public func allowsStart(players: Int) -> Bool {
        if case .wait = decide(players: players) { return false }
        return true
    }

    /// The fewest players with whom Start can be pressed at all.
    public var fewestPlayers: Int { mayPlayAlone ? 1 : minimumPlayers }
}
