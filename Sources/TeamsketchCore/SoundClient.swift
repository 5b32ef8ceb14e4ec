import Foundation

/// The game's short sounds, by what they mean.
public enum SoundEffect: CaseIterable, Hashable, Sendable {
    /// A letter landed in its slot.
    case snap
    /// A letter did not fit and went back to the hand.
    case springBack
    case send
    case receive
    /// The player's word is complete.
    case word
    /// The round (or the game) is over.
    case round
}

/// Plays sounds. The live one (GTK's media stream) is in the desktop app;
/// `silent` is what a quiet classroom gets; tests record what was played.
public struct SoundClient {
    public var play: @MainActor (SoundEffect) -> Void

    public init(play: @escaping @MainActor (SoundEffect) -> Void) { self.play = play }

    public static var silent: SoundClient { SoundClient { _ in } }

    /// The live player when the settings want sounds, else silence.
    public static func choosing(soundsOn: Bool, live: () -> SoundClient) -> SoundClient {
        soundsOn ? live() : .silent
    }
}
