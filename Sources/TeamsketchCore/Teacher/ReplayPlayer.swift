import Foundation
import LearnModel

/// The replay's clock: where on the sketch's timeline the teacher is, and
/// whether it plays and how fast. The view ticks it with the time since
/// the last frame and draws `frame`; scrubbing sets the position. Long
/// pauses in the drawing (a pupil thinking for minutes) are shortened to
/// `longestPause`, so a replay shows the drawing, not the waiting.
public struct ReplayPlayer: Sendable {
    public static let speeds: [Double] = [1, 2, 4, 8]
    public static let longestPause: TimeInterval = 2

    public let timeline: ReplayTimeline
    /// Seconds of replay time from the start, 0...length.
    public private(set) var position: TimeInterval = 0
    public private(set) var isPlaying = false
    public var speed: Double = 1 {
        didSet { if !speed.isFinite || speed <= 0 { speed = 1 } }
    }
    /// Replay time → sketch time, with long pauses cut short: pairs of
    /// (replay seconds, sketch seconds) at each op, ascending.
    private let marks: [(replay: TimeInterval, sketch: TimeInterval)]

    public init(timeline: ReplayTimeline) {
        self.timeline = timeline
        var marks: [(TimeInterval, TimeInterval)] = [(0, 0)]
        var lastSketch = 0.0, replay = 0.0
        for step in 0..<timeline.stepCount {
            let sketch = max(lastSketch, timeline.time(ofStep: step + 1).timeIntervalSince(timeline.start))
            replay += min(sketch - lastSketch, Self.longestPause)
            marks.append((replay, sketch))
            lastSketch = sketch
        }
        self.marks = marks
    }

    /// Replay seconds from the first op to the last, long pauses shortened.
    public var length: TimeInterval { marks.last?.replay ?? 0 }

    public var isAtEnd: Bool { position >= length }

    public mutating func play() {
        if isAtEnd { position = 0 }
        isPlaying = true
    }

    public mutating func pause() { isPlaying = false }

    /// Moves on by `elapsed` wall-clock seconds times the speed; stops at the end.
    public mutating func tick(_ elapsed: TimeInterval) {
        guard isPlaying, elapsed.isFinite, elapsed > 0 else { return }
        position = min(length, position + elapsed * speed)
        if isAtEnd { isPlaying = false }
    }

    /// Jumps to a point of the timeline (0 = start, 1 = end).
    public mutating func scrub(to fraction: Double) {
        guard fraction.isFinite else { return }
        position = min(max(fraction, 0), 1) * length
    }

    /// Jumps to just after op `step` (e.g. a conflict), and pauses there.
    public mutating func jump(toStep step: Int) {
        let n = min(max(step + 1, 0), marks.count - 1)
        position = marks[n].replay
        isPlaying = false
    }

    public var fraction: Double { length > 0 ? position / length : 1 }

    /// Where on the replay's clock op `step` happens (what a list of
    /// moments shows, so it matches the timeline).
    public func replayTime(ofStep step: Int) -> TimeInterval {
        marks[min(max(step + 1, 0), marks.count - 1)].replay
    }

    /// The sketch as it was at the current position.
    public func frame(authors: Set<String>? = nil) -> ReplayFrame {
        timeline.frame(at: timeline.start.addingTimeInterval(sketchSeconds(atReplay: position)), authors: authors)
    }

    /// Sketch seconds for replay seconds: linear between marks.
    func sketchSeconds(atReplay t: TimeInterval) -> TimeInterval {
        guard let last = marks.last, t < last.replay else { return marks.last?.sketch ?? 0 }
        var lo = 0, hi = marks.count - 1
        while lo + 1 < hi {
            let mid = (lo + hi) / 2
            if marks[mid].replay <= t { lo = mid } else { hi = mid }
        }
        let a = marks[lo], b = marks[hi]
        guard b.replay > a.replay else { return a.sketch }
        // Inside a shortened pause the sketch's time jumps at its end, so
        // nothing is shown early.
        let k = (t - a.replay) / (b.replay - a.replay)
        return b.sketch - a.sketch > Self.longestPause ? (k < 1 ? a.sketch : b.sketch) : a.sketch + k * (b.sketch - a.sketch)
    }
}
