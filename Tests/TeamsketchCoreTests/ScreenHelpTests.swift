import LearnModel
import TeamsketchCore
import Testing

/// The "?" explains only what the screen offers the child now.
@Suite struct ScreenHelpTests {
    @Test func theSketchsHelpFollowsWhatTheClassAllows() {
        let drawer = SketchPermissions(mayDraw: true, mayClear: false,
                                       erase: EraseRule(eraserAllowed: true, ownStrokesOnly: true, undoAllowed: true))
        #expect(ScreenHelp.sketch(drawer) == [.choosePen, .chooseWidth, .draw, .undoOwn, .eraseOwn, .zoom, .goHome])
        let host = SketchPermissions(mayDraw: true, mayClear: true,
                                     erase: EraseRule(eraserAllowed: true, ownStrokesOnly: false, undoAllowed: false))
        #expect(ScreenHelp.sketch(host) == [.choosePen, .chooseWidth, .draw, .eraseAny, .clearForEveryone, .zoom, .goHome])
        let noEraser = SketchPermissions(mayDraw: true, mayClear: false,
                                         erase: EraseRule(eraserAllowed: false, ownStrokesOnly: false, undoAllowed: false))
        #expect(ScreenHelp.sketch(noEraser) == [.choosePen, .chooseWidth, .draw, .zoom, .goHome])
        #expect(ScreenHelp.sketch(.watching) == [.zoom, .goHome], "who only watches has no pens")
    }

    @Test func joiningAndTheLobbyHaveTheirOwnSteps() {
        #expect(ScreenHelp.join == [.tapTheSign, .typeTheCode, .waitToBeLetIn])
        #expect(ScreenHelp.hostLobby == [.friendsJoin, .letFriendsIn, .startTogether])
    }
}
