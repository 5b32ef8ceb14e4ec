import Testing
@testable import LearnModel

/// The one name rule, wherever a name is shown.
@Suite struct DisplayNameTests {
    @Test func everyDirectionControlIsDropped() {
        let hidden: [UInt32] = [0x200E, 0x200F, 0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069]
        for v in hidden {
            let s = "A" + String(Character(Unicode.Scalar(v)!)) + "B"
            #expect(DisplayName.cleaned(s, maxBytes: 64) == "AB", "U+\(String(v, radix: 16))")
        }
    }

    /// Found by the discovery fuzzer: a name cut just after a space kept the
    /// space, so the next announcement of the same name trimmed it and a
    /// listener saw the name change.
    @Test func cleaningACleanedNameChangesNothingWhenTheCutFallsAfterASpace() {
        let name = String(repeating: "x", count: 62) + " Anna"
        let once = DisplayName.cleaned(name, maxBytes: 63)
        #expect(once == String(repeating: "x", count: 62))
        #expect(DisplayName.cleaned(once, maxBytes: 63) == once)
    }

    @Test func terminalEscapesLoseTheirEscape() {
        #expect(DisplayName.member("\u{1B}[2JAnna\u{1B}[0m") == "[2JAnna[0m")
    }

    @Test func announcementsFollowTheSameRuleAtTheirOwnLength() {
        let a = SessionAnnouncement(sessionID: "x", hostName: "\u{202E}" + String(repeating: "b", count: 100) + "\n",
                                    activity: .sketch, port: 47851)
        #expect(a.hostName == String(repeating: "b", count: SessionAnnouncement.maxHostNameBytes))
    }

    @Test func cleaningTwiceChangesNothing() {
        let once = DisplayName.member(" \u{2067}Zoë\u{7} 👩‍🎨 ")
        #expect(once == "Zoë 👩‍🎨")
        #expect(DisplayName.member(once) == once)
    }
}
