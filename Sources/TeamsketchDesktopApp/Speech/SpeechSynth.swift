import CEspeak
import Foundation
import Synchronization
import TeamsketchCore

/// Text to speech with the espeak-ng library (Debian's `libespeak-ng1`
/// and its voices): the samples are collected in memory and handed back
/// as a WAV file, which the app plays like its other sounds. The library
/// keeps one state for the whole process, so one text is spoken at a
/// time (`lock`); it is asked off the main thread, since a long comment
/// takes a moment.
enum SpeechSynth {
    /// At most a minute of speech is kept (a cut comment ends there).
    static let maxSeconds = 60

    private static let lock = Mutex<State>(State())

    private struct State {
        /// The library's sample rate once started; 0 when it could not be.
        var sampleRate: Int?
    }

    /// The samples the library hands over while `espeak_Synth` runs.
    nonisolated(unsafe) private static var collected: [Int16] = []
    nonisolated(unsafe) private static var limit = 0

    private static let collect: @convention(c) (UnsafeMutablePointer<Int16>?, Int32, UnsafeMutablePointer<espeak_EVENT>?) -> Int32 = {
        wav, count, _ in
        guard let wav, count > 0 else { return 0 }
        let room = limit - collected.count
        guard room > 0 else { return 1 }                  // enough: stop
        collected.append(contentsOf: UnsafeBufferPointer(start: wav, count: min(Int(count), room)))
        return 0
    }

    /// `text` read in `language` ("de" or "en") as a WAV file, or nil when
    /// the library or its voices are missing.
    static func wav(_ text: String, language: String) -> [UInt8]? {
        lock.withLock { state -> [UInt8]? in
            if state.sampleRate == nil {
                // Without DONT_EXIT the library ends the whole app when its
                // voice data cannot be read.
                let rate = espeak_Initialize(AUDIO_OUTPUT_SYNCHRONOUS, 0, nil, Int32(espeakINITIALIZE_DONT_EXIT))
                state.sampleRate = rate > 0 ? Int(rate) : 0
                if rate > 0 { espeak_SetSynthCallback(collect) }
            }
            guard let rate = state.sampleRate, rate > 0,
                  espeak_SetVoiceByName(language == "de" ? "de" : "en") == EE_OK else { return nil }
            let said = String(text.prefix(SpeechClient.maxCharacters))
            collected = []
            limit = rate * maxSeconds
            let bytes = Array(said.utf8CString)
            let status = bytes.withUnsafeBufferPointer { buffer in
                espeak_Synth(buffer.baseAddress, buffer.count, 0, POS_CHARACTER, 0, UInt32(espeakCHARS_UTF8), nil, nil)
            }
            espeak_Synchronize()
            defer { collected = [] }
            guard status == EE_OK, !collected.isEmpty else { return nil }
            return WAVFile.pcm16(collected, sampleRate: rate)
        }
    }
}
