import TeamsketchCore

extension SoundClient {
    /// The game's chimes through GTK's media stream (`GameSounds`).
    @MainActor
    static func live() -> SoundClient {
        let player = GameSounds(enabled: true)
        return SoundClient { player.play($0) }
    }
}
