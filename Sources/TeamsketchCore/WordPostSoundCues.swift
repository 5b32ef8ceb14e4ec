import Foundation
import LearnModel

/// Which sound a game effect makes on this device: only what concerns the
/// player here (their tile, their word, letters to or from them) and the
/// end of a round or game, which everyone hears.
public enum WordPostSoundCues {
    public static func sound(for effect: WordPostEffect, me: PlayerID) -> GameSound? {
        switch effect {
        case .placed(_, let player, _) where player == me: .snap
        case .rejected(_, let player, _) where player == me: .springBack
        case .sent(_, let from, _) where from == me: .send
        case .sent(_, _, let to) where to == me: .receive
        case .wordFinished(let player) where player == me: .word
        case .roundFinished, .gameEnded: .round
        default: nil
        }
    }
}
