import Foundation
import LearnWordPost

/// A member's copy of the host's game, built from what the host sends: a
/// snapshot (the pool once, then the actions so far, replayed through the
/// same reducer) and then each change. Pure: messages in, the game and the
/// effects to play out; anything out of order or beyond the limits is an
/// error, and the member then rejoins for a fresh snapshot.
public struct WordPostReplica: Sendable {
    public private(set) var game: WordPostGame?
    /// The last change applied.
    public private(set) var seq: UInt64 = 0
    private var incoming: Incoming?

    /// A snapshot on its way; the old game stays on screen meanwhile.
    private struct Incoming: Sendable {
        var begin: WordPostGameBegin
        var items: [WordItem] = []
        var finished: Set<String> = []
        var bytes = 0
        var actions: [WordPostAction] = []
    }

    public init() {}

    /// What to show after a message: the game and the effects to play; nil
    /// when there is nothing to show yet (a snapshot still arriving).
    public mutating func receive(_ message: WordPostActivity.Message, me: PlayerID?)
        throws(ActivityPayloadError) -> (game: WordPostGame, effects: [WordPostEffect])? {
        switch message {
        case .intent:
            throw ActivityPayloadError("a member's word-post frame from the host")
        case .gameBegin(let begin):
            incoming = Incoming(begin: begin)
            return try completeIfDone()
        case .poolItems(let items):
            guard var inc = incoming, inc.items.count + items.count <= inc.begin.itemCount else {
                throw ActivityPayloadError("word-post pool items out of place")
            }
            for entry in items {
                inc.bytes += entry.item.word.utf8.count + entry.item.hint.utf8.count
                inc.items.append(entry.item)
                if entry.finishedBefore { inc.finished.insert(entry.item.word) }
            }
            guard inc.bytes <= WordPoolLimits.maxPoolBytes else { throw ActivityPayloadError("word-post pool too big") }
            incoming = inc
            return try completeIfDone()
        case .actions(let actions):
            guard var inc = incoming, inc.items.count == inc.begin.itemCount,
                  inc.actions.count + actions.count <= inc.begin.actionCount else {
                throw ActivityPayloadError("word-post actions out of place")
            }
            inc.actions += actions
            incoming = inc
            return try completeIfDone()
        case .moved(let move):
            guard incoming == nil, var g = game else { throw ActivityPayloadError("a word-post move before the game") }
            guard move.seq == seq + 1 else { throw ActivityPayloadError("word-post move \(move.seq) after \(seq)") }
            var effects: [WordPostEffect] = []
            for action in move.actions { effects += g.apply(action) }
            game = g
            seq = move.seq
            return (g, effects)
        case .refused(let intent):
            // Only the mover's own tile springs back, and only if it still holds it.
            guard incoming == nil, let g = game, let me, intent.player == me else { return nil }
            switch intent {
            case let .place(letter, _, slot):
                guard g.hands[me]?.contains(where: { $0.id == letter }) == true else { return nil }
                return (g, [.rejected(letter: letter, player: me, slot: slot)])
            case let .send(letter, _, _):
                guard g.hands[me]?.contains(where: { $0.id == letter }) == true else { return nil }
                return (g, [.rejected(letter: letter, player: me, slot: -1)])
            }
        }
    }

    private mutating func completeIfDone() throws(ActivityPayloadError) -> (game: WordPostGame, effects: [WordPostEffect])? {
        guard let inc = incoming, inc.items.count == inc.begin.itemCount,
              inc.actions.count == inc.begin.actionCount else { return nil }
        let pool = WordPool(id: inc.begin.poolID, name: inc.begin.poolName, language: inc.begin.language,
                            items: inc.items)
        // The host plays no pool beyond the limits; one that claims to is not ours.
        if WordPoolLimits.problem(in: pool) != nil { throw ActivityPayloadError("word-post pool beyond the limits") }
        var g = WordPostGame(pool: pool, previouslyFinished: inc.finished)
        for action in inc.actions { _ = g.apply(action) }
        incoming = nil
        game = g
        seq = inc.begin.seq
        return (g, [])
    }
}
