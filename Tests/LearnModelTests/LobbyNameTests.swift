import Foundation
import Testing
@testable import LearnModel

/// Names others will see: nothing hidden in them, and two people asking for
/// one name are shown to the host.
@Suite struct LobbyNameTests {
    let now = Date(timeIntervalSince1970: 1_700_000_000)

    func join(_ h: inout HostSession, _ c: ConnectionID, _ name: String) {
        _ = h.handle(.connectionOpened(c), now: now)
        _ = h.handle(.received(c, .hello(Hello(peerID: UUID(), name: name, role: .drawer))), now: now)
    }

    func names(_ h: HostSession) -> [String] { h.lobby.members.map(\.name) }

    @Test(arguments: [
        ("Anna\u{202E}lennA", "AnnalennA"),            // right-to-left override
        ("\u{2067}Ben\u{2069} (host)", "Ben (host)"),   // an isolate around a name
        ("\u{200F}Cleo\u{200E}", "Cleo"),               // direction marks
        ("Dan\u{202A}\u{202B}\u{202C}\u{202D}", "Dan"), // embeddings and pop
        ("\u{2066}\u{2068}Eva", "Eva"),
        ("Fr\u{7}ed\nfalse line\r", "Fredfalse line"),  // control characters and breaks
        ("Gus\u{2028}Hal\u{2029}", "GusHal"),           // line and paragraph separators
        ("  Ida  ", "Ida"),
        ("👩‍🎨 Jo", "👩‍🎨 Jo"),                          // the zero-width joiner stays
    ])
    func hiddenCharactersLeaveALobbyName(_ typed: String, _ shown: String) {
        var h = HostSession(hostName: "Teacher", params: SessionParams(name: "S"))
        join(&h, 1, typed)
        #expect(names(h) == ["Teacher", shown])
    }

    @Test func theHostsOwnNameIsCleanedToo() {
        let h = HostSession(hostName: "Frau\u{202E} Kim\n", params: SessionParams(name: "S"))
        #expect(h.hostName == "Frau Kim")
    }

    @Test func aNameOfOnlyHiddenCharactersBecomesGuest() {
        var h = HostSession(hostName: "Teacher", params: SessionParams(name: "S"))
        join(&h, 1, "\u{202E}\u{2066}\n")
        #expect(names(h) == ["Teacher", "Guest"])
    }

    @Test func aLongNameIsCutAtACharacter() {
        var h = HostSession(hostName: "Teacher", params: SessionParams(name: "S"))
        join(&h, 1, String(repeating: "ä", count: 200))
        let name = names(h)[1]
        #expect(name.utf8.count <= SessionLimits.maxNameBytes)
        #expect(name == String(repeating: "ä", count: SessionLimits.maxNameBytes / 2))
    }

    @Test func twoAnnasAreBothMarkedForTheHost() {
        var h = HostSession(hostName: "Teacher", params: SessionParams(name: "S"))
        join(&h, 1, "Anna")
        join(&h, 2, "Ben")
        join(&h, 3, "Anna")
        let lobby = h.lobby
        #expect(lobby.members.map(\.name) == ["Teacher", "Anna", "Ben", "Anna 2"])
        #expect(lobby.members.map(\.sharesName) == [false, true, false, true])
        // What joiners receive says so too.
        guard case .lobby(let decoded) = SessionSimulation.throughCodec(.lobby(lobby)) else {
            Issue.record("not a lobby"); return
        }
        #expect(decoded.members.map(\.sharesName) == [false, true, false, true])
        // When one of them goes, the other is no longer marked.
        _ = h.handle(.connectionClosed(1), now: now)
        #expect(h.lobby.members.map(\.sharesName) == [false, false, false])
    }

    @Test func aNameThatDiffersOnlyInCaseOrHiddenCharactersCountsAsTheSame() {
        var h = HostSession(hostName: "Teacher", params: SessionParams(name: "S"))
        join(&h, 1, "Anna")
        join(&h, 2, "ANNA\u{202E}")
        join(&h, 3, "teacher")
        #expect(h.lobby.members.map(\.sharesName) == [true, true, true, true])
    }

    @Test func namesFitASketchFileEvenWhenTwoAskForTheSameLongOne() throws {
        let long = String(repeating: "x", count: 250)  // under the wire's 256 bytes, over a file's 200 characters
        var h = HostSession(hostName: long, params: SessionParams(name: long))
        join(&h, 1, long)
        join(&h, 2, long)
        for name in names(h) { #expect(name.unicodeScalars.count <= SketchLimits.maxNameLength) }
        let cut = String(repeating: "x", count: SketchLimits.maxNameLength - 4)
        #expect(names(h) == [String(repeating: "x", count: SketchLimits.maxNameLength), cut + " 2", cut + " 3"])
        try SketchValidation.check(h.lobby.meta(sketch: h.sketch.id))
    }
}
