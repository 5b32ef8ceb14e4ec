import CGtk
import Foundation

/// Short sounds for the game's moments, synthesised once into WAV files and
/// played through GTK's media stream (GStreamer backend). A class that wants
/// quiet switches them off (SPEC §3); without a media backend or an audio
/// device the game is simply silent.
@MainActor
final class GameSounds {
    enum Sound: CaseIterable {
        case snap, springBack, send, receive, word, round

        /// Notes in Hz and their length in seconds: rising for success,
        /// a soft low pair for "not here".
        var notes: [(Double, Double)] {
            switch self {
            case .snap: [(880, 0.08), (1320, 0.10)]
            case .springBack: [(330, 0.10), (294, 0.14)]
            case .send: [(660, 0.07), (990, 0.07)]
            case .receive: [(990, 0.07), (660, 0.07)]
            case .word: [(660, 0.10), (880, 0.10), (1320, 0.18)]
            case .round: [(523, 0.12), (659, 0.12), (784, 0.12), (1046, 0.3)]
            }
        }
    }

    private let enabled: Bool
    private var streams: [Sound: UnsafeMutablePointer<GtkMediaStream>] = [:]

    init(enabled: Bool) { self.enabled = enabled }

    func play(_ sound: Sound) {
        guard enabled else { return }
        if streams[sound] == nil {
            guard let path = Self.file(for: sound) else { return }
            streams[sound] = UnsafeMutableRawPointer(gtk_media_file_new_for_filename(path))?.assumingMemoryBound(to: GtkMediaStream.self)
        }
        guard let stream = streams[sound] else { return }
        gtk_media_stream_seek(stream, 0)
        gtk_media_stream_play(stream)
    }

    private static func file(for sound: Sound) -> String? {
        let dir = NSTemporaryDirectory() + "teamsketch-sounds-\(getuid())"
        let path = dir + "/\(sound).wav"
        if FileManager.default.fileExists(atPath: path) { return path }
        try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return FileManager.default.createFile(atPath: path, contents: WAV.tones(sound.notes)) ? path : nil
    }
}

/// 16-bit mono PCM WAV of a sequence of soft sine notes.
enum WAV {
    static let rate = 22_050

    static func tones(_ notes: [(Double, Double)]) -> Data {
        var samples: [Int16] = []
        for (freq, length) in notes {
            let n = Int(length * Double(rate))
            for i in 0..<n {
                let t = Double(i) / Double(rate)
                // A quick attack and a decay: a chime, never a buzz.
                let envelope = min(1, t * 200) * exp(-t * 6)
                samples.append(Int16(sin(2 * .pi * freq * t) * envelope * 0.35 * Double(Int16.max)))
            }
        }
        var d = Data()
        func u32(_ v: UInt32) { withUnsafeBytes(of: v.littleEndian) { d.append(contentsOf: $0) } }
        func u16(_ v: UInt16) { withUnsafeBytes(of: v.littleEndian) { d.append(contentsOf: $0) } }
        let bytes = UInt32(samples.count * 2)
        d.append(contentsOf: Array("RIFF".utf8)); u32(36 + bytes)
        d.append(contentsOf: Array("WAVEfmt ".utf8)); u32(16); u16(1); u16(1)
        u32(UInt32(rate)); u32(UInt32(rate * 2)); u16(2); u16(16)
        d.append(contentsOf: Array("data".utf8)); u32(bytes)
        for s in samples { u16(UInt16(bitPattern: s)) }
        return d
    }
}
