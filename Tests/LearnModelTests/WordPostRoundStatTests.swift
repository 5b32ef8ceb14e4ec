import Foundation
import Testing
@testable import LearnModel

/// A round's result as laptops and the server both check it before adding
/// it to a pupil's totals.
@Suite struct WordPostRoundStatTests {
    func stat(milliseconds: Int64 = 30_000, sent: Int = 3, round: Int = 1, name: String = "Mia") -> WordPostRoundStat {
        WordPostRoundStat(id: UUID(), gameID: UUID(), round: round, playerName: name, word: "Baum", finished: true,
                          milliseconds: milliseconds, lettersSent: sent, lettersReceived: 2, wrongPlacements: 0,
                          playedAt: Date(timeIntervalSince1970: 1_789_000_000))
    }

    @Test func aResultAGameCouldProduceIsFineAndNothingElseIs() throws {
        #expect(stat().problem == nil)
        #expect(stat(milliseconds: WordPostRoundStat.maxMilliseconds).problem == nil)
        #expect(stat(milliseconds: WordPostRoundStat.maxMilliseconds + 1).problem != nil)
        #expect(stat(milliseconds: -1).problem != nil)
        #expect(stat(sent: WordPostRoundStat.maxCount + 1).problem != nil)
        #expect(stat(round: -1).problem != nil)
        #expect(stat(name: String(repeating: "M", count: 201)).problem != nil)
        // A number beyond any integer does not even decode.
        var json = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(stat())) as? [String: Any])
        json["milliseconds"] = 1e300
        let data = try JSONSerialization.data(withJSONObject: json)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(WordPostRoundStat.self, from: data) }
    }
}
