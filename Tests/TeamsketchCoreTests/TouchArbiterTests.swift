import Foundation
import LearnModel
import Testing
@testable import TeamsketchCore

/// Recorded contact sequences and what the canvas gets from them.
@Suite struct TouchArbiterTests {
    func p(_ x: Double, _ y: Double = 100) -> Point { Point(x, y) }

    /// Feeds a sequence; every event the canvas would get, in order.
    func run(_ contacts: [TouchArbiter.Contact], fingerDraws: Bool = true) -> [CanvasEvent] {
        var arbiter = TouchArbiter(fingerDraws: fingerDraws)
        return contacts.flatMap { arbiter.handle($0) }
    }

    func presses(_ events: [CanvasEvent]) -> Int {
        events.count { if case .press = $0 { true } else { false } }
    }

    @Test func oneFingerDrawsEveryPointOnceItIsClearlyOne() {
        let events = run([
            .down(id: 1, source: .finger, at: p(10), time: 0),
            .moved(id: 1, points: [p(11)], time: 0.016),
            .moved(id: 1, points: [p(12), p(13)], time: 0.032),
            .moved(id: 1, points: [p(14)], time: 0.070),
            .moved(id: 1, points: [p(15)], time: 0.090),
            .up(id: 1, at: p(16), time: 0.1),
        ])
        let drawn: [CanvasEvent] = [.press(p(10), eraserTip: false), .motion([p(11), p(12), p(13), p(14)]),
                                    .motion([p(15)]), .release(p(16))]
        #expect(events == drawn)
        // A quick tap is a dot, drawn when the finger lifts.
        let tap: [TouchArbiter.Contact] = [.down(id: 1, source: .finger, at: p(10), time: 0), .up(id: 1, at: p(10), time: 0.03)]
        let dot: [CanvasEvent] = [.press(p(10), eraserTip: false), .motion([]), .release(p(10))]
        #expect(run(tap) == dot)
    }

    @Test func twoFingersLanding30msApartPinchAndLeaveNoMark() {
        let events = run([
            .down(id: 1, source: .finger, at: p(100), time: 0),
            .moved(id: 1, points: [p(102)], time: 0.016),
            .down(id: 2, source: .finger, at: p(200), time: 0.030),
            .moved(id: 1, points: [p(50)], time: 0.05),
            .moved(id: 2, points: [p(250)], time: 0.06),
            .up(id: 2, at: p(250), time: 0.2),
            .moved(id: 1, points: [p(40)], time: 0.25),
            .up(id: 1, at: p(40), time: 0.3),
        ])
        #expect(presses(events) == 0, "a pinch drew: \(events)")
        let pinch: [CanvasEvent] = [
            .pinchBegan(center: p(151)),
            .pinchChanged(scale: 150 / 98, center: p(125)),
            .pinchChanged(scale: 200 / 98, center: p(150)),
            .pinchEnded,
        ]
        #expect(events == pinch)
    }

    @Test func aSecondFingerAfterTheHoldBackCallsTheStrokeOff() {
        let events = run([
            .down(id: 1, source: .finger, at: p(100), time: 0),
            .moved(id: 1, points: [p(110)], time: 0.1),
            .down(id: 2, source: .finger, at: p(300), time: 0.4),
            .up(id: 1, at: p(110), time: 0.5),
            .up(id: 2, at: p(300), time: 0.5),
        ])
        let calledOff: [CanvasEvent] = [.press(p(100), eraserTip: false), .motion([p(110)]), .cancel,
                                        .pinchBegan(center: p(205)), .pinchEnded]
        #expect(events == calledOff)
    }

    @Test func aPalmUnderAStylusIsIgnoredAndTheStylusDraws() {
        let events = run([
            .stylusNear(true, time: 0),
            .down(id: 7, source: .finger, at: p(400, 500), time: 0.01),       // the palm lands first
            .moved(id: 7, points: [p(401, 500)], time: 0.1),
            .down(id: 1, source: .stylus, at: p(10), time: 0.2),
            .moved(id: 7, points: [p(402, 500)], time: 0.25),
            .moved(id: 1, points: [p(20)], time: 0.3),
            .up(id: 1, at: p(30), time: 0.4),
            .stylusNear(false, time: 0.5),
            .up(id: 7, at: p(402, 500), time: 0.6),
            .down(id: 8, source: .finger, at: p(400, 500), time: 0.7),         // the hand still, just after
            .up(id: 8, at: p(400, 500), time: 0.75),
        ])
        let stylus: [CanvasEvent] = [.press(p(10), eraserTip: false), .motion([p(20)]), .release(p(30))]
        #expect(events == stylus)
        // Long after the stylus went, a finger draws again.
        let later: [TouchArbiter.Contact] = [.stylusNear(false, time: 0), .down(id: 9, source: .finger, at: p(5), time: 2),
                                             .up(id: 9, at: p(5), time: 2.01)]
        #expect(presses(run(later)) == 1)
        let eraser: [CanvasEvent] = [.press(p(1), eraserTip: true)]
        #expect(run([.down(id: 3, source: .eraser, at: p(1), time: 0)]) == eraser)
    }

    @Test func withFingerDrawingOffOneFingerMovesTheSheet() {
        let events = run([
            .down(id: 1, source: .finger, at: p(100), time: 0),
            .moved(id: 1, points: [p(120)], time: 0.1),
            .up(id: 1, at: p(120), time: 0.2),
            .down(id: 2, source: .mouse, at: p(5), time: 1),
            .up(id: 2, at: p(6), time: 1.1),
        ], fingerDraws: false)
        let moved: [CanvasEvent] = [.pinchBegan(center: p(100)), .pinchChanged(scale: 1, center: p(120)), .pinchEnded,
                                    .press(p(5), eraserTip: false), .release(p(6))]
        #expect(events == moved)
    }

    /// A child draws near the bottom edge and the hand lands on the pens
    /// there: while the line is drawn, and while a stylus is near or for a
    /// moment after it, a touch on the tools is a hand; before and after,
    /// a tap there picks a pen.
    @Test func aTouchOnThePensWhileDrawingIsAHand() {
        var arbiter = TouchArbiter()
        #expect(!arbiter.toolTouchIsAHand(at: 0))
        _ = arbiter.handle(.down(id: 1, source: .finger, at: p(10), time: 1))
        #expect(arbiter.toolTouchIsAHand(at: 1.01))           // held back, yet a line begins
        _ = arbiter.handle(.moved(id: 1, points: [p(20)], time: 1.1))
        #expect(arbiter.toolTouchIsAHand(at: 1.2))
        _ = arbiter.handle(.up(id: 1, at: p(30), time: 1.3))
        #expect(!arbiter.toolTouchIsAHand(at: 1.4))

        _ = arbiter.handle(.stylusNear(true, time: 2))
        #expect(arbiter.toolTouchIsAHand(at: 2.1))
        _ = arbiter.handle(.stylusNear(false, time: 3))
        #expect(arbiter.toolTouchIsAHand(at: 3.4))
        #expect(!arbiter.toolTouchIsAHand(at: 3.5))

        // Two fingers zooming: a third on the pens is a hand too.
        _ = arbiter.handle(.down(id: 2, source: .finger, at: p(10), time: 5))
        _ = arbiter.handle(.down(id: 3, source: .finger, at: p(90), time: 5.03))
        #expect(arbiter.toolTouchIsAHand(at: 5.1))
        _ = arbiter.handle(.up(id: 2, at: p(10), time: 5.2))
        _ = arbiter.handle(.up(id: 3, at: p(90), time: 5.2))
        #expect(!arbiter.toolTouchIsAHand(at: 5.3))
    }
}
