import TeamsketchCore

extension SoundClient {
    /// The game's chimes through GTK's media stream (`GameSounds`).
    @MainActor
    static func live() -> SoundClient {
        let player = GameSounds(enabled: true)
        return SoundClient { effect in
            let sound: GameSounds.Sound = switch effect {
            case .snap: .snap
            case .springBack: .springBack
            case .send: .send
            case .receive: .receive
            case .word: .word
            case .round: .round
            }
            player.play(sound)
        }
    }
}
