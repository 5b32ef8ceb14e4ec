import Foundation
import LearnModel
import LearnStore
import TeamsketchCore
import Testing

@Suite struct RoundStatsRecorderTests {
    let store: LocalStore
    init() throws { store = try LocalStore.inMemory() }

    func summary(round: Int) -> WordPostRoundSummary {
        let t = Date(timeIntervalSince1970: 1_718_000_000)
        return WordPostRoundSummary(round: round, startedAt: t, endedAt: t.addingTimeInterval(30), results: [
            WordPostRoundResult(player: 0, word: "HAUS", finished: true, milliseconds: 12_000,
                                lettersSent: 2, lettersReceived: 1, wrongPlacements: 0),
            WordPostRoundResult(player: 1, word: "BAUM", finished: false, milliseconds: 30_000,
                                lettersSent: 1, lettersReceived: 2, wrongPlacements: 3),
            WordPostRoundResult(player: 2, word: "MAUS", finished: true, milliseconds: 20_000,
                                lettersSent: 0, lettersReceived: 0, wrongPlacements: 1),
        ])
    }

    @Test(arguments: [(RoundStatsRecorder.Seat.solo, true), (.host, true), (.member, false)])
    func onlyTheDeviceThatOwnsTheGameRecords(seat: RoundStatsRecorder.Seat, records: Bool) throws {
        var recorder = RoundStatsRecorder(seat: seat, store: .live(store))
        #expect(recorder.records == records)
        let rows = try recorder.roundFinished(summary(round: 1), names: [0: "Mia", 1: "Ole"], me: 0)
        #expect(rows == (records ? 2 : 0))
        #expect(try store.stats(forPlayer: "Mia").rounds.count == (records ? 1 : 0))
    }

    @Test func eachNamedPlayerGetsTheirOwnResult() throws {
        var recorder = RoundStatsRecorder(seat: .host, store: .live(store))
        try recorder.roundFinished(summary(round: 1), names: [0: "Mia", 1: " Ole ", 2: "  "], me: 0)
        let ole = try store.stats(forPlayer: "Ole").rounds
        #expect(ole.map(\.word) == ["BAUM"])
        #expect(ole.first?.wrongPlacements == 3)
        #expect(ole.first?.gameID == recorder.gameID)
        #expect(try store.stats(forPlayer: "Mia").wordsFinished == 1)
        // Player 2 has no name: nobody a teacher could look up.
        #expect(try store.finishedWords(forPlayers: ["Mia", "Ole"]) == ["HAUS"])
    }

    @Test func eachResultIsFiledUnderItsPlayersAccountAndAnUnknownNameStaysHere() throws {
        let mia = UUID(), ole = UUID(), other = UUID()
        let accounts = PlayerAccounts(signedIn: .init(id: mia, name: "Mia"),
                                      known: [.init(id: ole, name: "ole"), .init(id: other, name: "Mia")])
        var recorder = RoundStatsRecorder(seat: .host, store: .live(store), accounts: accounts)
        #expect(try recorder.roundFinished(summary(round: 1), names: [0: "Mia", 1: "Ole", 2: "Kim"], me: 0) == 3)
        let pushed = try store.pendingOutbox().map { try JSONDecoder().decode(WordPostRoundStat.self, from: $0.payload) }
        #expect(Dictionary(uniqueKeysWithValues: pushed.map { ($0.playerName, $0.playerID) }) == ["Mia": mia, "Ole": ole])
        // Kim is nobody this laptop knows: kept, counted, never pushed.
        #expect(try store.stats(forPlayer: "Kim").rounds.map(\.word) == ["MAUS"])
        let unfiled = try store.unfiledResults()
        #expect(unfiled.count == 1)
        #expect(unfiled.names == ["Kim"])
    }

    @Test func aRoundIsNeverRecordedTwice() throws {
        var recorder = RoundStatsRecorder(seat: .solo, store: .live(store))
        #expect(try recorder.roundFinished(summary(round: 1), names: [0: "Mia"], me: 0) == 1)
        #expect(try recorder.roundFinished(summary(round: 1), names: [0: "Mia"], me: 0) == 0)
        #expect(try recorder.roundFinished(summary(round: 2), names: [0: "Mia"], me: 0) == 1)
        #expect(try store.stats(forPlayer: "Mia").rounds.map(\.round) == [1, 2])
    }

    @Test func noSummaryOrNoStoreRecordsNothing() throws {
        var noStore = RoundStatsRecorder(seat: .solo, store: nil)
        #expect(try noStore.roundFinished(summary(round: 1), names: [0: "Mia"], me: 0) == 0)
        var recorder = RoundStatsRecorder(seat: .solo, store: .live(store))
        #expect(try recorder.roundFinished(nil, names: [0: "Mia"], me: 0) == 0)
    }

    @Test func aFailedWriteIsATypedErrorAndNotRetriedForTheSameRound() {
        var recorder = RoundStatsRecorder(seat: .host, store: .failing)
        #expect(throws: RoundStatsError.self) { try recorder.roundFinished(summary(round: 3), names: [0: "Mia"], me: 0) }
        do {
            try recorder.roundFinished(summary(round: 4), names: [0: "Mia"], me: 0)
            Issue.record("expected a failure")
        } catch {
            #expect(error.round == 4)
            #expect(error.underlying is StoreUnavailable)
        }
        #expect((try? recorder.roundFinished(summary(round: 3), names: [0: "Mia"], me: 0)) == 0)
    }
}
