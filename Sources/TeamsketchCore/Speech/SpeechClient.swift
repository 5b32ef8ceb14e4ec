import Foundation

/// Reads text aloud: a hint, the game's help, the teacher's words, for a
/// child who cannot read them yet. The live one (the espeak-ng library,
/// played through GTK's media stream) is in the desktop app; `silent` is
/// what a class with its sounds off gets; tests record what was said.
public struct SpeechClient {
    /// `language`: "de" or "en", the voice to read with.
    public var say: @MainActor (_ text: String, _ language: String) -> Void
    /// Whether anything is heard: a screen shows its speaker buttons only then.
    public var speaks: Bool

    public init(speaks: Bool = true, say: @escaping @MainActor (String, String) -> Void) {
        self.speaks = speaks
        self.say = say
    }

    public static var silent: SpeechClient { SpeechClient(speaks: false) { _, _ in } }

    /// The live reader when the settings want sounds, else silence.
    public static func choosing(soundsOn: Bool, live: () -> SpeechClient) -> SpeechClient {
        soundsOn ? live() : .silent
    }

    /// Longest text read at once: a teacher's comment is at most 2,000
    /// characters; anything longer is cut, not refused.
    public static let maxCharacters = 2_000

    /// The voice for the app's language (the first language gettext would
    /// pick): German where the app speaks German, else English.
    @MainActor public static func language(environment: [String: String]) -> String {
        WordPoolCatalogue.preferredLanguages(environment: environment).first { $0 == "de" || $0 == "en" } ?? "en"
    }
}
