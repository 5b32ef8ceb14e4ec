import Foundation
import LearnSketch

/// What the canvas showed at one moment of a replay.
public struct ReplayFrame: Hashable, Sendable {
    /// Visible ink in log order (later strokes on top), after any author filter.
    public var strokes: [Stroke]
    /// How many ops the frame applies. For a frame by time this counts every op
    /// dated at or before `time`, so it is also the step a step-wise replay
    /// would continue from when the log's dates never go backwards.
    public var stepIndex: Int
    public var time: Date

    public init(strokes: [Stroke], stepIndex: Int, time: Date) {
        self.strokes = strokes; self.stepIndex = stepIndex; self.time = time
    }
}

/// A sketch's op log prepared for scrubbing: the teacher drags a slider back
/// and forth, so finding where a time falls is a binary search and building a
/// frame is one pass over the ops, never a document rebuilt per op.
///
/// A frame at time t applies the ops dated at or before t, in log order, as
/// `SketchDocument.strokes(at:)` does. A stroke's op is dated by its `endedAt`,
/// so a stroke appears once finished; an erase or clear at exactly t already
/// took effect. Dates in a log from several devices are nearly always in
/// order, but clocks drift, so nothing here assumes it.
public struct ReplayTimeline: Sendable {
    public let ops: [SketchOp]
    /// The first moment anything happened: the earliest stroke's `startedAt`
    /// or the earliest erase or clear. The sketch's creation time when empty.
    public let start: Date
    /// The latest op date; `start` when empty.
    public let end: Date

    /// Op dates in (date, log index) order, for the binary search.
    private let sortedDates: [Date]
    /// rank[i]: where op i sits in that order. Only read when out of order.
    private let rank: [Int]
    /// True when dates never go backwards in the log, so "ops up to t" is a
    /// prefix of the log and a frame can stop early.
    private let inLogOrder: Bool
    /// clock[n]: `time(ofStep: n)`.
    private let clock: [Date]

    public init(document: SketchDocument) {
        let ops = document.ops
        self.ops = ops
        let dates = ops.map(\.date)
        var inLogOrder = true
        for i in dates.indices.dropFirst() where dates[i] < dates[i - 1] {
            inLogOrder = false
            break
        }
        self.inLogOrder = inLogOrder
        if inLogOrder {
            sortedDates = dates
            rank = []
        } else {
            let order = dates.indices.sorted { (dates[$0], $0) < (dates[$1], $1) }
            sortedDates = order.map { dates[$0] }
            var rank = [Int](repeating: 0, count: ops.count)
            for (position, index) in order.enumerated() { rank[index] = position }
            self.rank = rank
        }

        var start = sortedDates.first ?? document.meta.createdAt
        for case .addStroke(let s) in ops { start = min(start, s.startedAt, s.endedAt) }
        self.start = start
        end = sortedDates.last ?? start

        // The replay clock never runs backwards, even over an out-of-order op.
        var clock = [start]
        clock.reserveCapacity(ops.count + 1)
        for d in dates { clock.append(max(clock[clock.count - 1], d)) }
        self.clock = clock
    }

    public var duration: TimeInterval { end.timeIntervalSince(start) }

    /// Number of ops; valid steps are 0...stepCount.
    public var stepCount: Int { ops.count }

    /// When step `n` (the first `n` ops applied) is reached: the latest date
    /// among those ops, `start` for step 0. Clamped to 0...stepCount.
    public func time(ofStep n: Int) -> Date {
        clock[min(max(n, 0), ops.count)]
    }

    /// How many ops are dated at or before `date`: the first sorted position
    /// whose date is later than `date`.
    public func step(at date: Date) -> Int {
        var lo = 0, hi = sortedDates.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if sortedDates[mid] <= date { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    /// The canvas at `date`; with `authors`, only those pupils' ink is shown
    /// (what others erased or cleared stays gone).
    public func frame(at date: Date, authors: Set<String>? = nil) -> ReplayFrame {
        let k = step(at: date)
        let strokes: [Stroke]
        if inLogOrder {
            strokes = visibleStrokes(logIndices: 0..<k, authors: authors)
        } else {
            let rank = rank
            strokes = visibleStrokes(logIndices: ops.indices.lazy.filter { rank[$0] < k }, authors: authors)
        }
        return ReplayFrame(strokes: strokes, stepIndex: k, time: date)
    }

    /// The canvas after the first `n` ops in log order, for stepping one op at
    /// a time (and for jumping to an op index another analysis reported).
    public func frame(afterSteps n: Int, authors: Set<String>? = nil) -> ReplayFrame {
        let n = min(max(n, 0), ops.count)
        return ReplayFrame(strokes: visibleStrokes(logIndices: 0..<n, authors: authors), stepIndex: n,
                           time: time(ofStep: n))
    }

    /// Applies the given ops with `SketchDocument.apply`'s rules, in one pass:
    /// a slot per added stroke and an id map, so an erase costs O(1) instead
    /// of a search through the visible strokes.
    private func visibleStrokes(logIndices: some Sequence<Int>, authors: Set<String>?) -> [Stroke] {
        var slots: [Stroke?] = []
        var slotOfID: [UUID: Int] = [:]
        for i in logIndices {
            switch ops[i] {
            case .addStroke(let s):
                // A stroke id already visible is a duplicate the document ignores.
                guard slotOfID[s.id] == nil else { continue }
                slotOfID[s.id] = slots.count
                slots.append(s)
            case .eraseStroke(let id, _, _):
                if let slot = slotOfID.removeValue(forKey: id) { slots[slot] = nil }
            case .clear:
                slots.removeAll(keepingCapacity: true)
                slotOfID.removeAll(keepingCapacity: true)
            }
        }
        return slots.compactMap { s in
            guard let s, authors?.contains(s.author) ?? true else { return nil }
            return s
        }
    }
}
