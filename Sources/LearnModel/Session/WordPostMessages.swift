import Foundation

// Buchstaben Post over the session layer (docs/PROTOCOL.md "Buchstaben
// Post"): what the lobby says about the game, the two frame types the game
// adds, and their byte layouts.

/// The word game's lobby block (`Lobby.wordPost`), so a
/// joiner knows which screen to open before the start and needs nothing
/// locally: which pool and the classroom setting. The
/// pool's items themselves travel with the game state (`WordPostUpdate`),
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

/// Host → accepted members (and every rejoiner): what the last action did
/// and the whole game after it. The state is small (four words and hands,
/// the pool), so every device simply shows the host's copy.
public struct WordPostUpdate: Hashable, Sendable {
    /// Counts up per update within a session; a catch-up for a rejoiner
    /// repeats the current number with no effects.
    public var seq: UInt64
    public var effects: [WordPostEffect]
    public var game: WordPostGame

    public init(seq: UInt64, effects: [WordPostEffect], game: WordPostGame) {
        self.seq = seq
        self.effects = effects
        self.game = game
    }

    /// The state as JSON (`WordPostGame`'s Codable form); capped so the frame
    /// stays under `SessionLimits.maxFrameLength`.
    static let maxStateBytes = SessionLimits.maxFrameLength - (64 << 10)
    static let maxEffects = 4096
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

extension WordPostUpdate {
    /// The state as JSON, nil if it is over the cap (never for a real pool).
    static func stateJSON(_ game: WordPostGame) -> [UInt8]? {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        guard let data = try? encoder.encode(game), data.count <= maxStateBytes else { return nil }
        return Array(data)
    }

    func encode(into w: inout WireWriter) {
        w.varint(seq)
        w.varint(effects.count)
        for e in effects { w.wordPostEffect(e) }
        w.blob(Self.stateJSON(game) ?? [])
    }

    static func decode(_ r: inout WireReader) throws(PayloadError) -> WordPostUpdate {
        let seq = try r.varint()
        let n = try r.count(minElementSize: 2, max: maxEffects)
        var effects: [WordPostEffect] = []
        effects.reserveCapacity(n)
        for _ in 0..<n { effects.append(try r.wordPostEffect()) }
        let json = try r.blob(max: maxStateBytes)
        let game: WordPostGame
        do { game = try JSONDecoder().decode(WordPostGame.self, from: Data(json)) } catch {
            throw PayloadError("bad word-post state")
        }
        return WordPostUpdate(seq: seq, effects: effects, game: game)
    }
}

extension WordPostEndReason {
    var wireCode: UInt8 {
        switch self {
        case .poolEmpty: 0
        case .hostEnded: 1
        case .allLeft: 2
        }
    }

    init(wireCode: UInt8) throws(PayloadError) {
        switch wireCode {
        case 0: self = .poolEmpty
        case 1: self = .hostEnded
        case 2: self = .allLeft
        default: throw PayloadError("bad word-post end reason \(wireCode)")
        }
    }
}

extension WireWriter {
    /// Kind byte, then the fields as varints (see docs/PROTOCOL.md).
    mutating func wordPostEffect(_ e: WordPostEffect) {
        switch e {
        case .roundDealt(let round):
            u8(1); varint(UInt64(clamping: round))
        case let .placed(letter, player, slot):
            u8(2); varint(letter); varint(player); varint(UInt64(clamping: slot))
        case let .rejected(letter, player, slot):
            u8(3); varint(letter); varint(player); varint(UInt64(clamping: slot))
        case let .sent(letter, from, to):
            u8(4); varint(letter); varint(from); varint(to)
        case .wordFinished(let player):
            u8(5); varint(player)
        case .roundFinished(let round):
            u8(6); varint(UInt64(clamping: round))
        case .gameEnded(let reason):
            u8(7); u8(reason.wireCode)
        case let .redistributed(from, handovers, withdrawn):
            u8(8); varint(from)
            varint(handovers.count)
            for h in handovers { varint(h.letter); varint(h.to) }
            varint(withdrawn.count)
            for l in withdrawn { varint(l) }
        }
    }
}

extension WireReader {
    mutating func wordPostEffect() throws(PayloadError) -> WordPostEffect {
        func small() throws(PayloadError) -> Int { try varint(as: Int.self, max: 1 << 20) }
        switch try u8() {
        case 1: return .roundDealt(round: try small())
        case 2:
            let letter = try varint(as: LetterID.self), player = try varint(as: PlayerID.self)
            return .placed(letter: letter, player: player, slot: try small())
        case 3:
            let letter = try varint(as: LetterID.self), player = try varint(as: PlayerID.self)
            return .rejected(letter: letter, player: player, slot: try small())
        case 4:
            let letter = try varint(as: LetterID.self), from = try varint(as: PlayerID.self)
            return .sent(letter: letter, from: from, to: try varint(as: PlayerID.self))
        case 5: return .wordFinished(try varint(as: PlayerID.self))
        case 6: return .roundFinished(round: try small())
        case 7: return .gameEnded(try WordPostEndReason(wireCode: try u8()))
        case 8:
            let from = try varint(as: PlayerID.self)
            let n = try count(minElementSize: 2)
            var handovers: [LetterHandover] = []
            handovers.reserveCapacity(n)
            for _ in 0..<n {
                let letter = try varint(as: LetterID.self)
                handovers.append(LetterHandover(letter: letter, to: try varint(as: PlayerID.self)))
            }
            let m = try count(minElementSize: 1)
            var withdrawn: [LetterID] = []
            withdrawn.reserveCapacity(m)
            for _ in 0..<m { withdrawn.append(try varint(as: LetterID.self)) }
            return .redistributed(from: from, handovers: handovers, withdrawn: withdrawn)
        case let k:
            throw PayloadError("bad word-post effect \(k)")
        }
    }
}

// MARK: - The activity

/// Buchstaben Post as an activity: its lobby block (the pool and the sounds
/// setting) and its two frames, intents up and updates down.
public enum WordPostActivity: ActivityDefinition {
    public typealias LobbyInfo = WordPostLobbyInfo

    public enum Message: Hashable, Sendable {
        /// Member → host: a move.
        case intent(WordPostIntent)
        /// Host → members: effects and the whole game.
        case update(WordPostUpdate)
    }

    public static let kind = SessionActivity.wordpost
    public static let startRule = StartRule.wordPost
    static let intentType: UInt8 = 48
    static let updateType: UInt8 = 49

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

    public static func encode(_ message: Message) -> ActivityMessage {
        var w = WireWriter()
        switch message {
        case .intent(let i):
            i.encode(into: &w)
            return ActivityMessage(type: intentType, payload: w.bytes)
        case .update(let u):
            u.encode(into: &w)
            return ActivityMessage(type: updateType, payload: w.bytes)
        }
    }

    public static func decode(_ message: ActivityMessage) throws(ActivityPayloadError) -> Message {
        var r = WireReader(message.payload)
        do throws(PayloadError) {
            switch message.type {
            case intentType: return .intent(try WordPostIntent.decode(&r))
            case updateType: return .update(try WordPostUpdate.decode(&r))
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
