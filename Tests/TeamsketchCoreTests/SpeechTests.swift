import Testing
import TeamsketchCore

@Suite struct SpeechTests {
    @Test func aWAVFileHasTheHeaderPlayersRead() {
        let wav = WAVFile.pcm16([0, 1, -1, 32767], sampleRate: 22_050)
        #expect(wav.count == 44 + 8)
        #expect(Array(wav[0..<4]) == Array("RIFF".utf8) && Array(wav[8..<16]) == Array("WAVEfmt ".utf8))
        #expect(Array(wav[4..<8]) == [44, 0, 0, 0], "the file's length after the first 8 bytes")
        #expect(Array(wav[22..<28]) == [1, 0, 0x22, 0x56, 0, 0], "mono at 22,050 Hz")
        #expect(Array(wav[36..<44]) == Array("data".utf8) + [8, 0, 0, 0])
        #expect(Array(wav[44...]) == [0, 0, 1, 0, 0xFF, 0xFF, 0xFF, 0x7F])
    }

    @MainActor @Test func theVoiceFollowsTheAppsLanguage() {
        #expect(SpeechClient.language(environment: ["LANG": "de_DE.UTF-8"]) == "de")
        #expect(SpeechClient.language(environment: ["LANG": "fr_FR.UTF-8"]) == "en")
        #expect(SpeechClient.language(environment: ["LC_ALL": "C.UTF-8", "LANGUAGE": "de"]) == "en")
    }

    @MainActor final class Recorder { var said: [String] = [] }

    @MainActor @Test func aQuietClassHearsNothing() {
        let recorder = Recorder()
        let live = { SpeechClient { text, _ in recorder.said.append(text) } }
        SpeechClient.choosing(soundsOn: false, live: live).say("Hallo", "de")
        #expect(recorder.said.isEmpty && !SpeechClient.choosing(soundsOn: false, live: live).speaks)
        SpeechClient.choosing(soundsOn: true, live: live).say("Hallo", "de")
        #expect(recorder.said == ["Hallo"])
    }
}
