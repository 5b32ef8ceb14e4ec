import Foundation
import Testing
@testable import TeamsketchCore

@Suite struct UndoWindowTests {
    let start = Date(timeIntervalSince1970: 1_790_000_000)

    func at(_ seconds: TimeInterval) -> Date { start.addingTimeInterval(seconds) }

    @Test func undoInTimeTakesTheActionBack() {
        var window = UndoWindow<String>(duration: 6)
        #expect(window.offer("archive 3b", now: at(0)).isNone)
        #expect(window.secondsLeft(now: at(0.5)) == 6)
        #expect(window.tick(now: at(5.9)).isNone)
        #expect(window.undo(now: at(5.9)).takenBack == "archive 3b")
        // Taken back once: a second press and the timer do nothing.
        #expect(window.undo(now: at(5.95)).isNone)
        #expect(window.tick(now: at(7)).isNone)
        #expect(window.pending == nil)
    }

    @Test func afterTheWindowTheActionStands() {
        var window = UndoWindow<String>(duration: 6)
        _ = window.offer("delete list", now: at(0))
        #expect(window.tick(now: at(5.99)).isNone)
        #expect(window.tick(now: at(6)).committed == "delete list")
        #expect(window.tick(now: at(7)).isNone)
        #expect(window.undo(now: at(7)).isNone)
        #expect(window.secondsLeft(now: at(7)) == nil)
    }

    @Test func undoPressedLateCommitsInsteadOfTakingBack() {
        // The timer may run a little after the deadline; a press in between is too late.
        var window = UndoWindow<String>(duration: 6)
        _ = window.offer("delete list", now: at(0))
        #expect(window.undo(now: at(6.2)).committed == "delete list")
        #expect(window.pending == nil)
    }

    @Test func aNewActionCommitsTheOneBefore() {
        var window = UndoWindow<String>(duration: 6)
        _ = window.offer("archive 3b", now: at(0))
        let serial = window.pending?.serial
        #expect(window.offer("delete list", now: at(2)).committed == "archive 3b")
        #expect(window.pending?.serial != serial)
        // The new one has its own full window.
        #expect(window.tick(now: at(7)).isNone)
        #expect(window.undo(now: at(7.5)).takenBack == "delete list")
    }

    @Test func closingTheWindowCommitsWhatIsPending() {
        var window = UndoWindow<String>(duration: 6)
        #expect(window.finish().isNone)
        _ = window.offer("delete list", now: at(0))
        #expect(window.finish().committed == "delete list")
        #expect(window.finish().isNone)
    }

    @Test func aClockSetBackDoesNotKeepTheWindowOpen() {
        var window = UndoWindow<String>(duration: 6)
        _ = window.offer("delete list", now: at(0))
        #expect(window.secondsLeft(now: at(-3600)) == 0)
        #expect(window.tick(now: at(-3600)).committed == "delete list")
    }

    @Test func aNegativeDurationIsNoWindow() {
        var window = UndoWindow<String>(duration: -5)
        _ = window.offer("archive", now: at(0))
        #expect(window.undo(now: at(0)).committed == "archive")
    }
}

extension UndoWindow.Decision {
    var isNone: Bool { if case .none = self { true } else { false } }
    var committed: Action? { if case .commit(let a) = self { a } else { nil } }
    var takenBack: Action? { if case .takeBack(let a) = self { a } else { nil } }
}
