import Foundation

/// What an activity declares to the session core: its kind (for discovery
/// and the lobby), who may start it, what its lobby block says and how its
/// own frames read. The core stores none of these types; it carries the
/// lobby block and the frames as bytes (`ActivityInfo`, `ActivityMessage`)
/// and asks `startRule` before it starts. Team Sketch and Buchstaben Post
/// are two of these; docs/ARCHITECTURE.md ("Adding an activity") has the
/// steps for another.
public protocol ActivityDefinition {
    /// What the lobby shows joiners before the start.
    associatedtype LobbyInfo: Hashable, Sendable
    /// The activity's own frames, both directions.
    associatedtype Message: Sendable

    static var kind: SessionActivity { get }
    static var startRule: StartRule { get }

    static func encode(_ info: LobbyInfo) -> [UInt8]
    static func decodeLobbyInfo(_ bytes: [UInt8]) throws(ActivityPayloadError) -> LobbyInfo

    static func encode(_ message: Message) -> ActivityMessage
    static func decode(_ message: ActivityMessage) throws(ActivityPayloadError) -> Message
}

extension ActivityDefinition {
    /// What the host session is given for this activity.
    public static func declaration(_ info: LobbyInfo) -> ActivityDeclaration {
        ActivityDeclaration(info: ActivityInfo(kind: kind, bytes: encode(info)), startRule: startRule)
    }

    /// The lobby block read as this activity's, nil if the session runs
    /// another activity or the block does not read.
    public static func lobbyInfo(of lobby: Lobby) -> LobbyInfo? {
        guard lobby.activity == kind else { return nil }
        return try? decodeLobbyInfo(lobby.activityInfo.bytes)
    }
}

/// The part of an activity the pure host session needs: the lobby block it
/// repeats to everyone and the rule it starts by.
public struct ActivityDeclaration: Hashable, Sendable {
    public var info: ActivityInfo
    public var startRule: StartRule
    public var kind: SessionActivity { info.kind }

    public init(info: ActivityInfo, startRule: StartRule) {
        self.info = info
        self.startRule = startRule
    }
}
