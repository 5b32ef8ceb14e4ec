import LearnModel
import LearnNet

/// Where this device's moves in a team game of Buchstaben Post go: to the
/// game it hosts or to the host it joined. `nextRound` is the host's only.
public struct WordPostMoves: Sendable {
    public var place: @Sendable (_ letter: LetterID, _ slot: Int) -> Void
    public var send: @Sendable (_ letter: LetterID, _ to: PlayerID) -> Void
    public var nextRound: (@Sendable () -> Void)?

    public init(place: @escaping @Sendable (LetterID, Int) -> Void, send: @escaping @Sendable (LetterID, PlayerID) -> Void,
                nextRound: (@Sendable () -> Void)?) {
        self.place = place
        self.send = send
        self.nextRound = nextRound
    }
}

extension WordPostMoves {
    static func hosting(_ h: WordPostHost) -> WordPostMoves {
        WordPostMoves(place: { h.place(letter: $0, slot: $1) }, send: { h.send(letter: $0, to: $1) },
                      nextRound: { h.nextRound() })
    }

    static func member(_ c: WordPostClient) -> WordPostMoves {
        WordPostMoves(place: { c.place(letter: $0, slot: $1) }, send: { c.send(letter: $0, to: $1) }, nextRound: nil)
    }
}
