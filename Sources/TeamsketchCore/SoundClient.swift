import Foundation

/// Plays sounds. The live one (GTK's media stream) is in the desktop app;
/// `silent` is what a quiet classroom gets; tests record what was played.
public struct SoundClient {
    public var play: @MainActor (GameSound) -> Void

    public init(play: @escaping @MainActor (GameSound) -> Void) { self.play = play }

    public static var silent: SoundClient { SoundClient { _ in } }

    /// The live player when the settings want sounds, else silence.
    public static func choosing(soundsOn: Bool, live: () -> SoundClient) -> SoundClient {
        soundsOn ? live() : .silent
    }
}
