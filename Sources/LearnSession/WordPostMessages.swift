import Foundation
import LearnWordPost

// Buchstaben Post over the session layer (docs/PROTOCOL.md "Buchstaben
// Post"): what the lobby says about the game, the two frame types the game
// adds, and their byte layouts.

/// The word game's lobby block (`Lobby.wordPost`), so a
/// joiner knows which screen to open before the start and needs nothing
/// locally: which pool and the classroom setting. The
/// pool's items themselves go once, at the start (`WordPostGameBegin`),
/// so the lobby frame, sent after every change, stays small.
public struct WordPostLobbyInfo: Hashable, Sendable {
    public var poolID: String
    public var poolName: String
    public var language: String
    public var wordCount: Int
    /// Snap, spring-back and reward sounds (a classroom setting).
    public var soundsOn: Bool

    public init(poolID: String, poolName: String, language: String, wordCount: Int, soundsOn: Bool = true) {
        self.poolID = SessionLimits.truncated(poolID)
        self.poolName = SessionLimits.truncated(poolName)
        self.language = SessionLimits.truncated(language, maxBytes: 32)
        self.wordCount = max(0, wordCount)
        self.soundsOn = soundsOn
    }

    public init(pool: WordPool, soundsOn: Bool = true) {
        self.init(poolID: pool.id, poolName: pool.name, language: pool.language, wordCount: pool.items.count,
                  soundsOn: soundsOn)
    }
}

/// Member → host: what a child did with a tile. Only the two moves a player
/// makes; starting, rounds and the end are the host's. `player` is what the
/// member claims; the host applies an intent only if it equals the member
/// index of the connection it came on (a forged one is ignored).
public enum WordPostIntent: Hashable, Sendable {
    case place(letter: LetterID, by: PlayerID, slot: Int)
    case send(letter: LetterID, from: PlayerID, to: PlayerID)

    public var player: PlayerID {
        switch self {
        case .place(_, let p, _): p
        case .send(_, let p, _): p
        }
    }

    /// The reducer action, stamped with the host's clock.
    public func action(at date: Date) -> WordPostAction {
        switch self {
        case let .place(letter, by, slot): .place(letter: letter, by: by, slot: slot, at: date)
        case let .send(letter, from, to): .send(letter: letter, from: from, to: to)
        }
    }
}

/// Host → a member, first of a game's snapshot: which pool and how much
/// follows. The pool's items come next in `poolItems` frames, then the
/// actions so far in `actions` frames; the member replays them
/// (`WordPostReplica`). Sent to everyone at the start and to each late
/// joiner and rejoiner, so the pool travels once per connection.
public struct WordPostGameBegin: Hashable, Sendable {
    /// The number of the last change the actions include; the next `moved` is seq + 1.
    public var seq: UInt64
    public var poolID: String
    public var poolName: String
    public var language: String
    public var itemCount: Int
    public var actionCount: Int

    public init(seq: UInt64, poolID: String, poolName: String, language: String, itemCount: Int, actionCount: Int) {
        self.seq = seq
        self.poolID = SessionLimits.truncated(poolID)
        self.poolName = SessionLimits.truncated(poolName)
        self.language = SessionLimits.truncated(language, maxBytes: 32)
        self.itemCount = itemCount
        self.actionCount = actionCount
    }
}

/// One word of the pool as the snapshot carries it, with whether this group
/// finished it in an earlier game (drawing favours the others, and every
/// device must draw alike).
public struct WordPostPoolItem: Hashable, Sendable {
    public var item: WordItem
    public var finishedBefore: Bool

    public init(_ item: WordItem, finishedBefore: Bool) {
        self.item = item
        self.finishedBefore = finishedBefore
    }
}

/// Host → accepted members: one change of the game, as the actions the host
/// applied (with the host's times), so each member applies them to its copy
/// and ends up with the host's state. A move is a few bytes.
public struct WordPostMove: Hashable, Sendable {
    /// One more than the last change; a member that sees a gap is out of step.
    public var seq: UInt64
    /// Usually one action; counters of wrong drops come first when there are any.
    public var actions: [WordPostAction]

    public init(seq: UInt64, actions: [WordPostAction]) {
        self.seq = seq
        self.actions = actions
    }
}

/// Caps of the word-post frames (docs/PROTOCOL.md "Buchstaben Post").
public enum WordPostWireLimits {
    /// Players in a `start` action: four drawers play; room for more later.
    public static let maxPlayers = 16
    /// Actions in one `moved`: the wrong-drop counters of every player and the move.
    public static let maxMoveActions = 64
    /// Actions a game may take before the host ends it. A joiner's snapshot
    /// is queued whole, so the biggest pool plus this many of the largest
    /// actions (about 23 bytes each) must stay well under a connection's
    /// 8 MiB queue. Children taking a few seconds a move need days to get
    /// here; even four at the flood limit need an hour.
    public static let maxLogActions = 150_000
    /// Wrong drops one counter may add.
    public static let maxCount = 1 << 20
    /// Bytes of items or actions per snapshot frame, well under the frame cap.
    static let chunkBudget = 512 << 10
}

// MARK: - Byte layouts

extension WordPostIntent {
    func encode(into w: inout WireWriter) {
        switch self {
        case let .place(letter, by, slot):
            w.u8(1); w.varint(by); w.varint(letter); w.varint(UInt64(clamping: slot))
        case let .send(letter, from, to):
            w.u8(2); w.varint(from); w.varint(letter); w.varint(to)
        }
    }

    static func decode(_ r: inout WireReader) throws(PayloadError) -> WordPostIntent {
        switch try r.u8() {
        case 1:
            let by = try r.varint(as: PlayerID.self)
            let letter = try r.varint(as: LetterID.self)
            return .place(letter: letter, by: by, slot: try r.varint(as: Int.self, max: 1 << 16))
        case 2:
            let from = try r.varint(as: PlayerID.self)
            let letter = try r.varint(as: LetterID.self)
            return .send(letter: letter, from: from, to: try r.varint(as: PlayerID.self))
        case let k:
            throw PayloadError("bad word-post intent \(k)")
        }
    }
}

extension WordPostAction {
    /// The host's times go out as wire times (whole milliseconds); the host
    /// applies actions with times already rounded so (`WireTime(_:).date`),
    /// so every copy of the game holds the same dates.
    func encode(into w: inout WireWriter) {
        func time(_ d: Date) { w.zigzag(WireTime(d).milliseconds) }
        switch self {
        case let .start(players, seed, at):
            w.u8(1); w.varint(players.count); for p in players { w.varint(p) }
            w.varint(seed); time(at)
        case let .place(letter, by, slot, at):
            w.u8(2); w.varint(letter); w.varint(by); w.varint(UInt64(clamping: slot)); time(at)
        case let .send(letter, from, to):
            w.u8(3); w.varint(letter); w.varint(from); w.varint(to)
        case let .playerLeft(player, at):
            w.u8(4); w.varint(player); time(at)
        case .nextRound(let at):
            w.u8(5); time(at)
        case .endGame(let at):
            w.u8(6); time(at)
        case let .wrongPlacements(player, count):
            w.u8(7); w.varint(player); w.varint(UInt64(clamping: count))
        }
    }

    static func decode(_ r: inout WireReader) throws(PayloadError) -> WordPostAction {
        func time() throws(PayloadError) -> Date { WireTime(milliseconds: try r.zigzag()).date }
        switch try r.u8() {
        case 1:
            let n = try r.count(minElementSize: 1, max: WordPostWireLimits.maxPlayers)
            var players: [PlayerID] = []
            for _ in 0..<n { players.append(try r.varint(as: PlayerID.self)) }
            let seed = try r.varint()
            return .start(players: players, seed: seed, at: try time())
        case 2:
            let letter = try r.varint(as: LetterID.self), by = try r.varint(as: PlayerID.self)
            let slot = try r.varint(as: Int.self, max: 1 << 16)
            return .place(letter: letter, by: by, slot: slot, at: try time())
        case 3:
            let letter = try r.varint(as: LetterID.self), from = try r.varint(as: PlayerID.self)
            return .send(letter: letter, from: from, to: try r.varint(as: PlayerID.self))
        case 4:
            let player = try r.varint(as: PlayerID.self)
            return .playerLeft(player, at: try time())
        case 5: return .nextRound(at: try time())
        case 6: return .endGame(at: try time())
        case 7:
            let player = try r.varint(as: PlayerID.self)
            return .wrongPlacements(player: player, count: try r.varint(as: Int.self, max: WordPostWireLimits.maxCount))
        case let k:
            throw PayloadError("bad word-post action \(k)")
        }
    }
}

extension WordPostPoolItem {
    func encode(into w: inout WireWriter) {
        w.string(item.word)
        w.string(item.hint)
        w.u8(UInt8(clamping: min(max(item.priority, WordItem.priorityRange.lowerBound), WordItem.priorityRange.upperBound)))
        w.u8(finishedBefore ? 1 : 0)
    }

    /// Bytes `encode` writes (at most 2 for each length varint).
    var encodedSize: Int { item.word.utf8.count + item.hint.utf8.count + 6 }

    static func decode(_ r: inout WireReader) throws(PayloadError) -> WordPostPoolItem {
        let word = try r.string(maxBytes: WordPoolLimits.maxWordBytes)
        let hint = try r.string(maxBytes: WordPoolLimits.maxHintBytes)
        let priority = try r.u8()
        guard WordItem.priorityRange.contains(Int(priority)) else { throw PayloadError("bad priority \(priority)") }
        let flags = try r.u8()
        return WordPostPoolItem(WordItem(word: word, hint: hint, priority: Int(priority)), finishedBefore: flags & 1 != 0)
    }
}

// MARK: - The activity

/// Buchstaben Post as an activity: its lobby block (the pool and the sounds
/// setting) and its frames: moves up; the game's snapshot, its changes and
/// refusals down.
public enum WordPostActivity: ActivityDefinition {
    public typealias LobbyInfo = WordPostLobbyInfo

    public enum Message: Hashable, Sendable {
        /// Member → host: a move.
        case intent(WordPostIntent)
        /// Host → member: a snapshot starts (then items, then actions).
        case gameBegin(WordPostGameBegin)
        /// Host → member: a piece of the pool.
        case poolItems([WordPostPoolItem])
        /// Host → member: a piece of the actions so far.
        case actions([WordPostAction])
        /// Host → members: a change of the game.
        case moved(WordPostMove)
        /// Host → the one member whose move it was: refused, nothing changed
        /// for the others; the tile springs back.
        case refused(WordPostIntent)
    }

    public static let kind = SessionActivity.wordpost
    public static let startRule = StartRule.wordPost
    static let intentType: UInt8 = 48
    // 49 was protocol 2's whole-state update; it is not reused.
    static let gameBeginType: UInt8 = 50
    static let poolItemsType: UInt8 = 51
    static let actionsType: UInt8 = 52
    static let movedType: UInt8 = 53
    static let refusedType: UInt8 = 54

    public static func encode(_ info: WordPostLobbyInfo) -> [UInt8] {
        var w = WireWriter()
        w.string(info.poolID)
        w.string(info.poolName)
        w.string(info.language)
        w.varint(info.wordCount)
        w.u8(info.soundsOn ? 1 : 0)
        return w.bytes
    }

    public static func decodeLobbyInfo(_ bytes: [UInt8]) throws(ActivityPayloadError) -> WordPostLobbyInfo {
        var r = WireReader(bytes)
        do throws(PayloadError) {
            let id = try r.string(maxBytes: SessionLimits.maxNameBytes)
            let name = try r.string(maxBytes: SessionLimits.maxNameBytes)
            let language = try r.string(maxBytes: 32)
            let count = try r.varint(as: Int.self, max: 1 << 24)
            let flags = try r.u8()
            return WordPostLobbyInfo(poolID: id, poolName: name, language: language, wordCount: count,
                                     soundsOn: flags & 1 != 0)
        } catch {
            throw ActivityPayloadError("word-post lobby: \(error.reason)")
        }
    }

    /// Every message the host builds fits a frame: intents, moves and refusals
    /// are a few bytes, snapshot pieces are cut to `chunkBudget`
    /// (`WordPostSnapshot`), and a pool over `WordPoolLimits` never starts.
    public static func encode(_ message: Message) -> ActivityMessage {
        var w = WireWriter()
        switch message {
        case .intent(let i):
            i.encode(into: &w)
            return ActivityMessage(type: intentType, payload: w.bytes)
        case .gameBegin(let b):
            w.varint(b.seq); w.string(b.poolID); w.string(b.poolName); w.string(b.language)
            w.varint(b.itemCount); w.varint(b.actionCount)
            return ActivityMessage(type: gameBeginType, payload: w.bytes)
        case .poolItems(let items):
            w.varint(items.count)
            for item in items { item.encode(into: &w) }
            return ActivityMessage(type: poolItemsType, payload: w.bytes)
        case .actions(let actions):
            w.varint(actions.count)
            for a in actions { a.encode(into: &w) }
            return ActivityMessage(type: actionsType, payload: w.bytes)
        case .moved(let m):
            w.varint(m.seq)
            w.varint(m.actions.count)
            for a in m.actions { a.encode(into: &w) }
            return ActivityMessage(type: movedType, payload: w.bytes)
        case .refused(let i):
            i.encode(into: &w)
            return ActivityMessage(type: refusedType, payload: w.bytes)
        }
    }

    public static func decode(_ message: ActivityMessage) throws(ActivityPayloadError) -> Message {
        var r = WireReader(message.payload)
        do throws(PayloadError) {
            switch message.type {
            case intentType: return .intent(try WordPostIntent.decode(&r))
            case gameBeginType:
                let seq = try r.varint(as: UInt64.self, max: SessionLimits.maxSeq)
                let id = try r.string(maxBytes: SessionLimits.maxNameBytes)
                let name = try r.string(maxBytes: SessionLimits.maxNameBytes)
                let language = try r.string(maxBytes: 32)
                let items = try r.varint(as: Int.self, max: WordPoolLimits.maxWords)
                let actions = try r.varint(as: Int.self, max: WordPostWireLimits.maxLogActions)
                return .gameBegin(WordPostGameBegin(seq: seq, poolID: id, poolName: name, language: language,
                                                    itemCount: items, actionCount: actions))
            case poolItemsType:
                // A word, a hint (each at least its length byte), priority, flags.
                let n = try r.count(minElementSize: 4, max: WordPoolLimits.maxWords)
                var items: [WordPostPoolItem] = []
                items.reserveCapacity(n)
                for _ in 0..<n { items.append(try WordPostPoolItem.decode(&r)) }
                return .poolItems(items)
            case actionsType:
                let n = try r.count(minElementSize: 2, max: WordPostWireLimits.maxLogActions)
                var actions: [WordPostAction] = []
                actions.reserveCapacity(n)
                for _ in 0..<n { actions.append(try WordPostAction.decode(&r)) }
                return .actions(actions)
            case movedType:
                let seq = try r.varint(as: UInt64.self, max: SessionLimits.maxSeq)
                let n = try r.count(minElementSize: 2, max: WordPostWireLimits.maxMoveActions)
                var actions: [WordPostAction] = []
                for _ in 0..<n { actions.append(try WordPostAction.decode(&r)) }
                return .moved(WordPostMove(seq: seq, actions: actions))
            case refusedType: return .refused(try WordPostIntent.decode(&r))
            default: throw PayloadError("unknown word-post frame type \(message.type)")
            }
        } catch {
            throw ActivityPayloadError(error.reason)
        }
    }
}

extension Lobby {
    /// Buchstaben Post's lobby block; nil for any other activity.
    public var wordPost: WordPostLobbyInfo? { WordPostActivity.lobbyInfo(of: self) }
}
