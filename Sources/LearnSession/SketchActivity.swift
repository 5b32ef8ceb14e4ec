import Foundation

/// Team Sketch as an activity. Its strokes are the session core's own
/// frames (the shared document is what a session was first built for), so
/// it adds no frames and no lobby block of its own: the sketch's name,
/// guides and time limit are the lobby's parameters.
public enum SketchActivity: ActivityDefinition {
    public struct LobbyInfo: Hashable, Sendable {
        public init() {}
    }

    /// No frames of its own: any activity frame in a sketch session is an error.
    public enum Message: Sendable {}

    public static let kind = SessionActivity.sketch
    public static let startRule = StartRule.sketch

    public static func encode(_ info: LobbyInfo) -> [UInt8] { [] }
    public static func decodeLobbyInfo(_ bytes: [UInt8]) throws(ActivityPayloadError) -> LobbyInfo { LobbyInfo() }

    public static func encode(_ message: Message) -> ActivityMessage { switch message {} }
    public static func decode(_ message: ActivityMessage) throws(ActivityPayloadError) -> Message {
        throw ActivityPayloadError("a sketch has no frame type \(message.type)")
    }

    /// The declaration every sketch session uses.
    public static var declaration: ActivityDeclaration { declaration(LobbyInfo()) }
}
