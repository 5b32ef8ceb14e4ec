import CGtk
import Foundation
import TeamsketchCore

extension SpeechClient {
    /// Reads with `SpeechSynth` off the main thread and plays the result
    /// through GTK's media stream; a new text stops the one still playing.
    /// `TEAMSKETCH_SPEECH_DIR` keeps a copy of each file read (tests listen
    /// there: a test machine has no loudspeaker).
    @MainActor
    static func live(_ player: SpeechPlayer) -> SpeechClient {
        SpeechClient { text, language in player.say(text, language: language) }
    }
}

/// One for the app: whatever screen asks, a new text stops the last, and
/// the file played is the app's own.
@MainActor
final class SpeechPlayer {
    private var stream: UnsafeMutablePointer<GtkMediaStream>?
    private var asked = 0
    private let file = FileManager.default.temporaryDirectory
        .appendingPathComponent("teamsketch-speech-\(ProcessInfo.processInfo.processIdentifier).wav").path

    func say(_ text: String, language: String) {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { return }
        asked += 1
        let mine = asked
        Task { @MainActor [weak self] in
            let wav = await Task.detached(priority: .userInitiated) { SpeechSynth.wav(trimmed, language: language) }.value
            guard let self, self.asked == mine else { return }
            guard let wav else {
                FileHandle.standardError.write(Data("read aloud: no voice (espeak-ng)\n".utf8))
                return
            }
            self.play(wav, language: language)
        }
    }

    private func play(_ wav: [UInt8], language: String) {
        if let stream {
            gtk_media_stream_pause(stream)
            g_object_unref(UnsafeMutableRawPointer(stream))
            self.stream = nil
        }
        FileHandle.standardError.write(Data("read aloud: \(language) \((wav.count - 44) / 2) samples\n".utf8))
        if let dir = ProcessInfo.processInfo.environment["TEAMSKETCH_SPEECH_DIR"] {
            try? Data(wav).write(to: URL(fileURLWithPath: dir).appendingPathComponent("said-\(asked).wav"))
        }
        do {
            try Data(wav).write(to: URL(fileURLWithPath: file), options: .atomic)
        } catch {
            return
        }
        // A new file object each time: GTK's media file reads its file once.
        stream = UnsafeMutableRawPointer(gtk_media_file_new_for_filename(file))?.assumingMemoryBound(to: GtkMediaStream.self)
        if let stream { gtk_media_stream_play(stream) }
    }
}

/// The speaker button beside a text a child may not read yet: ≥ 48 px,
/// shown only when the class's sounds are on (`SpeechClient.speaks`).
@MainActor
enum ReadAloudButton {
    /// In the app's own language, as the voice says.
    static func make(_ voice: Voice, text: @escaping @MainActor () -> String) -> Widget {
        make(voice.speech, language: voice.language, text: text)
    }

    static func make(_ speech: SpeechClient, language: String, text: @escaping @MainActor () -> String) -> Widget {
        let button = UI.iconButton("audio-speakers-symbolic", tooltip: `_`("Read aloud"), classes: ["tool"]) {
            speech.say(text(), language)
        }
        gtk_widget_set_visible(button, speech.speaks ? 1 : 0)
        gtk_widget_set_valign(button, GTK_ALIGN_CENTER)
        return button
    }
}
