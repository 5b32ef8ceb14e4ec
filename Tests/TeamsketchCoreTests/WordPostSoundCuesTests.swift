import Foundation
import LearnModel
import TeamsketchCore
import Testing

@MainActor
@Suite struct WordPostSoundCuesTests {
    let me: PlayerID = 1

    @Test func myOwnMovesSoundAndOthersStayQuiet() {
        #expect(WordPostSoundCues.sound(for: .placed(letter: 3, player: me, slot: 0), me: me) == .snap)
        #expect(WordPostSoundCues.sound(for: .placed(letter: 3, player: 2, slot: 0), me: me) == nil)
        #expect(WordPostSoundCues.sound(for: .rejected(letter: 3, player: me, slot: 1), me: me) == .springBack)
        #expect(WordPostSoundCues.sound(for: .rejected(letter: 3, player: 0, slot: 1), me: me) == nil)
        #expect(WordPostSoundCues.sound(for: .wordFinished(me), me: me) == .word)
        #expect(WordPostSoundCues.sound(for: .wordFinished(0), me: me) == nil)
    }

    @Test func lettersSoundForTheSenderAndTheReceiverOnly() {
        #expect(WordPostSoundCues.sound(for: .sent(letter: 4, from: me, to: 2), me: me) == .send)
        #expect(WordPostSoundCues.sound(for: .sent(letter: 4, from: 2, to: me), me: me) == .receive)
        #expect(WordPostSoundCues.sound(for: .sent(letter: 4, from: 0, to: 2), me: me) == nil)
    }

    @Test func theEndOfARoundOrGameIsForEveryone() {
        #expect(WordPostSoundCues.sound(for: .roundFinished(round: 2), me: me) == .round)
        #expect(WordPostSoundCues.sound(for: .gameEnded(.poolEmpty), me: me) == .round)
        #expect(WordPostSoundCues.sound(for: .roundDealt(round: 2), me: me) == nil)
    }

    @Test func aQuietClassroomGetsSilence() {
        var played: [GameSound] = []
        let recording = SoundClient { played.append($0) }
        SoundClient.choosing(soundsOn: false) { recording }.play(.snap)
        #expect(played.isEmpty)
        SoundClient.choosing(soundsOn: true) { recording }.play(.snap)
        #expect(played == [.snap])
    }
}
