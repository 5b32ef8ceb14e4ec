import LearnModel
import Testing
import TeamsketchCore

@Suite struct SessionWordingTests {
    /// Each line names itself, so a mix-up shows.
    let words = SessionWording(letIn: "in", full: "full", wrongVersion: "version", alreadyOver: "over", lobbyFull: "busy", sentAway: "no",
                               ended: "ended", timeUp: "time", hostLeft: "left")

    @Test func everyReasonToBeSentAwayHasItsLine() {
        #expect(words.text(for: .full) == "full")
        #expect(words.text(for: .protocolMismatch(hostVersion: 9)) == "version")
        #expect(words.text(for: .sessionEnded) == "over")
        #expect(words.text(for: .lobbyFull) == "busy")
        #expect(words.text(for: .byHost) == "no")
        // A reason from a newer host that this app does not know is still
        // a "no", not silence.
        #expect(words.text(for: .other(200)) == "no")
    }

    @Test func everyEndHasItsLine() {
        #expect(words.text(for: EndReason.hostEnded) == "ended")
        #expect(words.text(for: EndReason.timeUp) == "time")
        #expect(words.text(for: EndReason.hostLeft) == "left")
    }

    @Test func anActivityWithoutATimeLimitSaysItHasEnded() {
        let game = SessionWording(letIn: "in", full: "full", wrongVersion: "version", alreadyOver: "over", lobbyFull: "busy", sentAway: "no",
                                  ended: "ended", hostLeft: "left")
        #expect(game.text(for: EndReason.timeUp) == "ended")
    }
}
