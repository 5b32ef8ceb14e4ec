import Foundation
import Testing
@testable import LearnModel
import TeamsketchTestSupport
@testable import LearnNet

/// A player who solves its own word and helps teammates, from the shared
/// state only: places the tiles it holds that fit its open slots and sends
/// the rest to a teammate still missing that grapheme.
enum WordPostBot {
    static func moves(_ game: WordPostGame, me: PlayerID) -> [WordPostIntent] {
        guard case .playing = game.phase, let word = game.words[me], let hand = game.hands[me] else { return [] }
        var open = word.openSlots
        var need: [PlayerID: [String: Int]] = [:]
        for p in game.players where p != me {
            var n: [String: Int] = [:]
            for g in game.words[p]?.missingGraphemes ?? [] { n[g, default: 0] += 1 }
            for t in game.hands[p] ?? [] { n[t.grapheme, default: 0] -= 1 }
            need[p] = n
        }
        var out: [WordPostIntent] = []
        for tile in hand {
            if let k = open.firstIndex(where: { WordGraphemes.matches(tile.grapheme, word.slots[$0].grapheme) }) {
                out.append(.place(letter: tile.id, by: me, slot: open.remove(at: k)))
            } else if let p = game.players.first(where: { $0 != me && (need[$0]?[tile.grapheme] ?? 0) > 0 }) {
                need[p]![tile.grapheme]! -= 1
                out.append(.send(letter: tile.id, from: me, to: p))
            }
        }
        return out
    }
}

/// One seat at the table: how to read the game and make a move.
struct WordPostSeat: Sendable {
    var me: PlayerID
    var game: @Sendable () async -> WordPostGame?
    var act: @Sendable (WordPostIntent) -> Void

    static func host(_ h: WordPostHost) -> WordPostSeat {
        WordPostSeat(me: HostSession.hostIndex, game: { await h.game() }, act: { i in
            switch i {
            case let .place(letter, _, slot): h.place(letter: letter, slot: slot)
            case let .send(letter, _, to): h.send(letter: letter, to: to)
            }
        })
    }

    static func client(_ c: WordPostClient) -> WordPostSeat {
        WordPostSeat(me: c.index!, game: { c.game }, act: { i in
            switch i {
            case let .place(letter, _, slot): c.place(letter: letter, slot: slot)
            case let .send(letter, _, to): c.send(letter: letter, to: to)
            }
        })
    }

    /// Plays until the game ends (or the task is cancelled); each tile is
    /// moved once, as a child would.
    func play() async {
        var done: Set<LetterID> = []
        while !Task.isCancelled {
            if let g = await game() {
                if g.isEnded { return }
                for m in WordPostBot.moves(g, me: me) {
                    let id: LetterID = switch m { case .place(let l, _, _), .send(let l, _, _): l }
                    if done.insert(id).inserted { act(m) }
                }
            }
            try? await Task.sleep(for: .milliseconds(3))
        }
    }
}

/// Collects word-post events.
final class WordPostEventLog: @unchecked Sendable {
    private let lock = NSLock()
    private var events: [WordPostEvent] = []
    var handler: @Sendable (WordPostEvent) -> Void { { [self] e in lock.withLock { events.append(e) } } }
    var all: [WordPostEvent] { lock.withLock { events } }
    func contains(_ p: (WordPostEvent) -> Bool) -> Bool { lock.withLock { events.contains(where: p) } }
}

enum WordPostLoopback {
    /// `classroomMoveRate`: the real per-member move limit; otherwise the
    /// bots, far faster than children, may move as fast as they like.
    static func host(pool: WordPool, seed: UInt64 = 42, rejoinWindow: Duration = .seconds(10),
                     events: WordPostEventLog? = nil, classroomMoveRate: Bool = false) async throws -> WordPostHost {
        var config = WordPostHost.Configuration(name: "Teacher", pool: pool)
        config.session.acceptAll = true
        config.session.bindHost = "127.0.0.1"
        config.session.log = .silent
        config.seed = seed
        config.rejoinWindow = rejoinWindow
        config.roundPause = .milliseconds(20)
        if !classroomMoveRate {
            config.moveBurst = 1_000_000
            config.movesPerSecond = 1_000_000
        }
        var handler: @Sendable (WordPostEvent) -> Void = { _ in }
        if let events { handler = events.handler }
        return try await WordPostHost.start(config, onEvent: handler)
    }

    static func join(_ host: WordPostHost, _ name: String, events: WordPostEventLog? = nil) async throws -> WordPostClient {
        var config = WordPostClient.Configuration(host: "127.0.0.1", port: host.port, name: name)
        config.session.log = .silent
        var handler: @Sendable (WordPostEvent) -> Void = { _ in }
        if let events { handler = events.handler }
        let c = try await WordPostClient.connect(config, onEvent: handler)
        try await eventually("accepted") { c.index != nil }
        return c
    }

    /// Host + `n` clients, accepted; the game started and seen by everyone.
    static func started(_ n: Int, pool: WordPool, seed: UInt64 = 42, rejoinWindow: Duration = .seconds(10))
        async throws -> (WordPostHost, [WordPostClient]) {
        let host = try await host(pool: pool, seed: seed, rejoinWindow: rejoinWindow)
        var clients: [WordPostClient] = []
        for i in 1...n { clients.append(try await join(host, "P\(i)")) }
        try await eventually("everyone in") { await host.lobby().connectedDrawers == n + 1 }
        host.startGame()
        for c in clients { try await eventually("game seen") { c.game?.round == 1 } }
        return (host, clients)
    }
}
