import Foundation
import Testing
@testable import LearnModel

/// The session codec carries an activity's lobby block and frames without
/// reading them, so any activity's bytes pass through unchanged.
@Suite struct ActivityCodecTests {
    private func decode(_ bytes: [UInt8]) throws -> SessionMessage? {
        var d = FrameDecoder()
        d.append(bytes)
        return try d.next()
    }

    @Test func anyActivitysLobbyBlockRoundTrips() throws {
        var lobby = HostSession(hostName: "T", params: SessionParams(name: "Wall")).lobby
        lobby.activityInfo = ActivityInfo(kind: SessionActivity(rawValue: "class-wall")!, bytes: [0, 1, 2, 250])
        #expect(try decode(SessionMessage.lobby(lobby).frame()) == .lobby(lobby))
        #expect(lobby.activity.rawValue == "class-wall")
    }

    @Test func aLobbyWithAnInvalidKindIsAPayloadError() throws {
        var lobby = HostSession(hostName: "T", params: SessionParams(name: "S")).lobby
        lobby.activityInfo = ActivityInfo(kind: SessionActivity(rawValue: "abc")!)
        var frame = SessionMessage.lobby(lobby).frame()
        // The kind is the last string but one: "abc" then an empty blob.
        let at = frame.count - 4
        #expect(Array(frame[at..<(at + 3)]) == Array("abc".utf8))
        frame[at] = UInt8(ascii: "A")
        #expect(throws: FrameError.self) { try decode(frame) }
    }

    @Test func activityFramesAreCarriedUnread() throws {
        for type in ActivityMessage.types {
            let m = ActivityMessage(type: type, payload: [9, 8, 7])
            let frame = SessionMessage.activity(m).frame()
            #expect(frame == [0, 0, 0, 5, SessionMessage.frameVersion, type, 9, 8, 7])
            #expect(try decode(frame) == .activity(m))
        }
        // An empty payload is the activity's business too.
        #expect(try decode([0, 0, 0, 2, SessionMessage.frameVersion, 63]) == .activity(ActivityMessage(type: 63, payload: [])))
    }

    @Test func typesAboveTheActivityRangeAreSkippedAsUnknown() throws {
        var d = FrameDecoder()
        d.append([0, 0, 0, 3, SessionMessage.frameVersion, 64, 1] + SessionMessage.bye.frame())
        #expect(try d.next() == .bye)
        #expect(d.skippedFrames == 1)
    }

    @Test func kindsAreShortLowercaseWords() {
        for good in ["sketch", "wordpost", "class-wall", "maths2", String(repeating: "a", count: 32)] {
            #expect(SessionActivity(rawValue: good) != nil, "\(good)")
        }
        for bad in ["", "Sketch", "word post", "wörter", String(repeating: "a", count: 33), "a_b"] {
            #expect(SessionActivity(rawValue: bad) == nil, "\(bad)")
        }
    }
}
