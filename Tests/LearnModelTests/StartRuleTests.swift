import Foundation
import Testing
@testable import LearnModel

/// Who may start: the one rule the host session, the lobby screen and the
/// headless host share.
@Suite struct StartRuleTests {
    @Test func aSketchNeedsTwoPainters() {
        let rule = StartRule.sketch
        #expect(rule.decide(players: 0) == .wait(needed: 2))
        #expect(rule.decide(players: 1) == .wait(needed: 1))
        #expect(rule.decide(players: 2) == .start)
        #expect(rule.decide(players: 4) == .start)
        #expect(!rule.allowsStart(players: 1))
        #expect(rule.fewestPlayers == 2)
    }

    @Test func aLoneHostMayPlayTheWordGameAfterConfirming() {
        let rule = StartRule.wordPost
        #expect(rule.decide(players: 1) == .startAlone)
        #expect(rule.allowsStart(players: 1))
        #expect(rule.decide(players: 2) == .start)
        #expect(rule.decide(players: 0) == .wait(needed: 2))
        #expect(rule.fewestPlayers == 1)
    }

    @Test func aRuleNeedingMoreDoesNotLetTwoStartEvenIfOneMayPlayAlone() {
        let rule = StartRule(minimumPlayers: 3, mayPlayAlone: true)
        #expect(rule.decide(players: 1) == .startAlone)
        #expect(rule.decide(players: 2) == .wait(needed: 1))
        #expect(rule.decide(players: 3) == .start)
    }

    @Test func theActivitiesDeclareTheirRules() {
        #expect(SketchActivity.startRule == .sketch)
        #expect(WordPostActivity.startRule == .wordPost)
    }

    /// The host session starts by its activity's rule, whatever the UI did.
    @Test func theHostSessionRefusesWhatTheRuleRefuses() {
        var sketch = HostSession(hostName: "T", params: SessionParams(name: "S"))
        let refused = sketch.handle(.start, now: Date())
        #expect(refused == [.event(.refused("at least 2 must be in to start"))])
        #expect(!sketch.isStarted)

        let pool = WordPool(id: "p", name: "P", language: "en", items: [])
        var game = HostSession(hostName: "T", params: SessionParams(name: "G"),
                               activity: WordPostActivity.declaration(WordPostLobbyInfo(pool: pool)))
        _ = game.handle(.start, now: Date())
        #expect(game.isStarted)

        var three = HostSession(hostName: "T", params: SessionParams(name: "M"),
                                activity: ActivityDeclaration(info: ActivityInfo(kind: SessionActivity(rawValue: "maths")!),
                                                              startRule: StartRule(minimumPlayers: 3, mayPlayAlone: false)))
        #expect(three.handle(.start, now: Date()) == [.event(.refused("at least 3 must be in to start"))])
    }
}
