import Foundation

/// The game's short sounds, by what they mean: one audio file each among
/// the resources (`sounds/<name>.wav`, made by scripts/make-sounds.py).
public enum GameSound: String, CaseIterable, Hashable, Sendable {
    /// A letter landed in its slot.
    case snap
    /// A letter did not fit and went back to the hand.
    case springBack = "spring-back"
    case send
    case receive
    /// The player's word is complete.
    case word
    /// The round (or the game) is over.
    case round

    public var resourcePath: String { "sounds/\(rawValue).wav" }
}

/// The sound files found, checked to be WAV files. A sound that is missing
/// or damaged is simply not played; the rest still are.
public struct GameSoundFiles: Sendable {
    public var paths: [GameSound: String]
    public var problems: [ResourceProblem]

    public init(locator: ResourceLocator) {
        paths = [:]
        problems = []
        for sound in GameSound.allCases {
            do {
                let file = try locator.contents(of: sound.resourcePath)
                if Self.isWAV(file.data) {
                    paths[sound] = file.path
                } else {
                    problems.append(.damaged(resource: sound.resourcePath, path: file.path, reason: "not a WAV file"))
                }
            } catch {
                problems.append(error)
            }
        }
    }

    /// A RIFF/WAVE header with a data chunk's worth of bytes behind it.
    static func isWAV(_ data: Data) -> Bool {
        let bytes = [UInt8](data.prefix(12))
        return data.count > 44 && Array(bytes.prefix(4)) == Array("RIFF".utf8) && Array(bytes.dropFirst(8)) == Array("WAVE".utf8)
    }
}
