import Foundation

/// One activity of the suite under every name it goes by: its kind on the
/// wire (discovery, the lobby), its key in the classroom settings, its name
/// in a kiosk file, the icon of its button and who may start it.
public struct ActivityEntry: Hashable, Sendable {
    public var kind: SessionActivity
    public var setting: ClassSettingsRecord.Activity
    /// What a kiosk file writes (`activities = team-sketch, word-post`).
    public var kioskName: String
    /// Other spellings a kiosk file may use for it.
    public var kioskAliases: [String]
    /// The freedesktop icon name of the button that starts it.
    public var icon: String
    public var startRule: StartRule
}

/// Every activity, named once: a new activity adds its entry here (and a
/// case to `entry(_ setting:)`, which the compiler then asks for); the
/// kiosk file and the lobbies know it by this, the start screen takes its
/// icon from it.
public enum ActivityCatalogue {
    public static let teamSketch = ActivityEntry(
        kind: SketchActivity.kind, setting: .teamSketch, kioskName: "team-sketch", kioskAliases: ["teamsketch", "sketch"],
        icon: "system-users-symbolic", startRule: SketchActivity.startRule)
    public static let wordPost = ActivityEntry(
        kind: WordPostActivity.kind, setting: .wordPost, kioskName: "word-post", kioskAliases: ["wordpost", "buchstaben-post"],
        icon: "mail-send-symbolic", startRule: WordPostActivity.startRule)

    public static let all = [teamSketch, wordPost]

    public static func entry(_ setting: ClassSettingsRecord.Activity) -> ActivityEntry {
        switch setting {
        case .teamSketch: teamSketch
        case .wordPost: wordPost
        }
    }

    public static func entry(_ kind: SessionActivity) -> ActivityEntry? {
        all.first { $0.kind == kind }
    }

    /// The activity a kiosk file names, by its name or one of its aliases.
    public static func entry(kioskName name: String) -> ActivityEntry? {
        all.first { $0.kioskName == name || $0.kioskAliases.contains(name) }
    }
}
