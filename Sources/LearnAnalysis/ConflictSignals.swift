import Foundation
import LearnSketch

/// One moment where a pupil's action touched someone else's ink: something a
/// teacher may want to look at, not proof of a quarrel.
public struct ConflictEvent: Hashable, Sendable {
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        /// The actor erased a stroke of the victim's.
        case erasedOther
        /// The actor's new stroke crosses or touches a visible stroke of the victim's.
        case drewOver
        /// The actor cleared the canvas while it showed the victim's ink.
        case clearedOthers
    }

    public var kind: Kind
    public var actor: String
    public var victim: String
    /// drewOver: the actor's new stroke. erasedOther: the erased stroke.
    /// clearedOthers: the victim's topmost stroke the clear removed.
    public var strokeID: UUID
    /// drewOver: the victim's stroke drawn over; nil otherwise.
    public var otherStrokeID: UUID?
    /// How many of the victim's strokes the op affected: 1, or for a clear the
    /// number of the victim's strokes it removed.
    public var strokeCount: Int
    public var at: Date
    /// Index of the op in `SketchDocument.ops`; `ReplayTimeline.frame(afterSteps:
    /// stepIndex)` shows the canvas just before it, `stepIndex + 1` just after.
    public var stepIndex: Int

    public init(kind: Kind, actor: String, victim: String, strokeID: UUID, otherStrokeID: UUID? = nil,
                strokeCount: Int = 1, at: Date, stepIndex: Int) {
        self.kind = kind; self.actor = actor; self.victim = victim; self.strokeID = strokeID
        self.otherStrokeID = otherStrokeID; self.strokeCount = strokeCount; self.at = at; self.stepIndex = stepIndex
    }
}

/// Who acted on whose ink; ordered, since A erasing B is not B erasing A.
public struct ConflictPair: Hashable, Sendable {
    public var actor: String
    public var victim: String
    public init(actor: String, victim: String) { self.actor = actor; self.victim = victim }
}

/// Finds erases, clears and over-drawing of other pupils' ink in a sketch's
/// op log, replaying it once.
///
/// "Drew over": a new stroke whose ink comes within reach of a still-visible
/// stroke by someone else that was earlier in the log and finished no later
/// than the new one. Ink reaches half its width from the centre line (a dot:
/// its full width, its radius), as in `StrokeHitTest`, so two lines touch when
/// their flattened centre lines come within (widthA + widthB) / 2. Each pair
/// of strokes gives at most one event.
///
/// Cost: candidate strokes come from a uniform grid over the bounds of the
/// visible strokes, so each new stroke is tested only against ink near it,
/// then by bounds, and only then by its flattened polyline.
public struct ConflictSignals: Hashable, Sendable {
    /// In log order; events of one op are ordered by the victim stroke's log
    /// order (drewOver) or the victim's name (clearedOthers).
    public let events: [ConflictEvent]
    /// Events per (actor, victim); a clear counts once per victim.
    public let counts: [ConflictPair: Int]

    public init(document: SketchDocument) {
        var scan = OverdrawIndex()
        var events: [ConflictEvent] = []
        for (step, op) in document.ops.enumerated() {
            switch op {
            case .addStroke(let s):
                for victim in scan.add(s) {
                    events.append(ConflictEvent(kind: .drewOver, actor: s.author, victim: victim.author,
                                                strokeID: s.id, otherStrokeID: victim.id, at: op.date,
                                                stepIndex: step))
                }
            case .eraseStroke(let id, let by, let at):
                guard let erased = scan.erase(id), erased.author != by else { continue }
                events.append(ConflictEvent(kind: .erasedOther, actor: by, victim: erased.author,
                                            strokeID: erased.id, at: at, stepIndex: step))
            case .clear(let by, let at):
                // Strokes come back in log order, so the last one kept per
                // author is that author's topmost.
                var removed: [String: (topmost: UUID, count: Int)] = [:]
                for s in scan.clear() where s.author != by {
                    removed[s.author] = (s.id, (removed[s.author]?.count ?? 0) + 1)
                }
                for victim in removed.keys.sorted() {
                    let r = removed[victim]!
                    events.append(ConflictEvent(kind: .clearedOthers, actor: by, victim: victim, strokeID: r.topmost,
                                                strokeCount: r.count, at: at, stepIndex: step))
                }
            }
        }
        self.events = events
        var counts: [ConflictPair: Int] = [:]
        for e in events { counts[ConflictPair(actor: e.actor, victim: e.victim), default: 0] += 1 }
        self.counts = counts
    }

    public func count(actor: String, victim: String) -> Int {
        counts[ConflictPair(actor: actor, victim: victim)] ?? 0
    }

    public func events(of kind: ConflictEvent.Kind) -> [ConflictEvent] {
        events.filter { $0.kind == kind }
    }
}

// MARK: - Visible ink with a spatial index

/// The visible strokes during a replay, bucketed by a uniform grid over their
/// bounds. A stroke sits in every cell its bounds cover; two strokes whose
/// bounds meet share a cell, so querying the new stroke's cells finds every
/// stroke it could touch.
private struct OverdrawIndex {
    private struct Entry {
        var stroke: Stroke
        var alive = true
        /// Flattened only once a neighbour needs it, then kept while visible.
        var polyline: [Point]?
        /// Grid cells it was put in; nil when it lives in `oversized`.
        var cells: CellRange?
    }

    private struct Cell: Hashable { var x: Int, y: Int }

    private struct CellRange {
        var x: ClosedRange<Int>, y: ClosedRange<Int>
        var cells: some Sequence<Cell> { x.lazy.flatMap { cx in self.y.lazy.map { Cell(x: cx, y: $0) } } }
    }

    /// Several cells for a typical pupil's line, without listing a
    /// whole-canvas scribble in hundreds of them.
    private static let cellSize = 64.0
    /// Strokes covering more cells than this (or with bounds too far out to
    /// grid) are kept in one list every query reads: a rare giant costs one
    /// test per new stroke instead of thousands of cell inserts.
    private static let maxCellsPerStroke = 1024

    private var entries: [Entry] = []
    private var slotOfID: [UUID: Int] = [:]
    private var grid: [Cell: [Int]] = [:]
    private var oversized: [Int] = []
    /// Slots below this were removed by a clear.
    private var clearedBelow = 0
    /// Per-slot stamp of the last query that listed it, to list each once.
    private var seenBy: [Int] = []
    private var queryCount = 0

    /// Adds a stroke and returns the visible strokes of other authors whose
    /// ink it touches, in log order.
    mutating func add(_ s: Stroke) -> [Stroke] {
        guard slotOfID[s.id] == nil else { return [] }
        let victims = strokesTouched(by: s)
        let slot = entries.count
        let range = Self.cellRange(of: s.bounds)
        entries.append(Entry(stroke: s, cells: range))
        seenBy.append(0)
        slotOfID[s.id] = slot
        if let range {
            for c in range.cells { grid[c, default: []].append(slot) }
        } else {
            oversized.append(slot)
        }
        return victims
    }

    /// Removes a visible stroke; nil when it is not visible.
    mutating func erase(_ id: UUID) -> Stroke? {
        guard let slot = slotOfID.removeValue(forKey: id) else { return nil }
        if let range = entries[slot].cells {
            for c in range.cells {
                grid[c]?.removeAll { $0 == slot }
                if grid[c]?.isEmpty == true { grid[c] = nil }
            }
        } else {
            oversized.removeAll { $0 == slot }
        }
        entries[slot].alive = false
        entries[slot].polyline = nil
        return entries[slot].stroke
    }

    /// Removes every visible stroke and returns them in log order.
    mutating func clear() -> [Stroke] {
        var removed: [Stroke] = []
        for slot in clearedBelow..<entries.count where entries[slot].alive {
            removed.append(entries[slot].stroke)
            entries[slot].alive = false
            entries[slot].polyline = nil
        }
        clearedBelow = entries.count
        slotOfID.removeAll(keepingCapacity: true)
        grid.removeAll(keepingCapacity: true)
        oversized.removeAll(keepingCapacity: true)
        return removed
    }

    private mutating func strokesTouched(by s: Stroke) -> [Stroke] {
        let bounds = s.bounds
        var candidates = candidateSlots(near: bounds)
        candidates.sort()
        var mine: [Point]?
        var victims: [Stroke] = []
        for slot in candidates {
            let other = entries[slot].stroke
            guard other.author != s.author, other.endedAt <= s.endedAt, other.bounds.intersects(bounds) else {
                continue
            }
            if mine == nil { mine = s.flattened(tolerance: StrokeHitTest.tolerance) }
            if entries[slot].polyline == nil {
                entries[slot].polyline = other.flattened(tolerance: StrokeHitTest.tolerance)
            }
            let reach = Self.reach(of: s) + Self.reach(of: other)
            if Self.polylines(mine!, entries[slot].polyline!, within: reach) { victims.append(other) }
        }
        return victims
    }

    private mutating func candidateSlots(near bounds: Rect) -> [Int] {
        guard let range = Self.cellRange(of: bounds) else {
            // Too big to grid: every visible stroke is a candidate.
            return (clearedBelow..<entries.count).filter { entries[$0].alive }
        }
        queryCount += 1
        var out: [Int] = []
        for slot in oversized { mark(slot, into: &out) }
        for c in range.cells {
            for slot in grid[c] ?? [] { mark(slot, into: &out) }
        }
        return out
    }

    private mutating func mark(_ slot: Int, into out: inout [Int]) {
        if seenBy[slot] != queryCount {
            seenBy[slot] = queryCount
            out.append(slot)
        }
    }

    private static func cellRange(of r: Rect) -> CellRange? {
        // Far beyond any canvas, or NaN: not worth gridding, and Int(_:) would trap.
        let limit = 1e9
        guard !r.isNull, r.x.isFinite, r.y.isFinite, r.maxX.isFinite, r.maxY.isFinite,
              abs(r.x) < limit, abs(r.y) < limit, abs(r.maxX) < limit, abs(r.maxY) < limit else { return nil }
        let x0 = Int((r.x / cellSize).rounded(.down)), x1 = Int((r.maxX / cellSize).rounded(.down))
        let y0 = Int((r.y / cellSize).rounded(.down)), y1 = Int((r.maxY / cellSize).rounded(.down))
        guard x0 <= x1, y0 <= y1 else { return nil }
        let n = (x1 - x0 + 1) * (y1 - y0 + 1)
        return n <= maxCellsPerStroke ? CellRange(x: x0...x1, y: y0...y1) : nil
    }

    /// How far ink reaches from its centre line, as `StrokeHitTest` counts it.
    private static func reach(of s: Stroke) -> Double {
        let r = s.isDot ? s.width : s.width / 2
        return r.isFinite ? max(0, r) : 0
    }

    /// Whether two polylines (a single point being a dot) come within `reach`
    /// of each other. Only the pieces of each near the other's bounds are
    /// compared, so two long strokes that meet at one end cost little.
    private static func polylines(_ a: [Point], _ b: [Point], within reach: Double) -> Bool {
        let near = { (poly: [Point], other: Rect) -> [(Point, Point, Rect)] in
            let pieces = poly.count == 1 ? [(poly[0], poly[0])]
                : poly.indices.dropFirst().map { (poly[$0 - 1], poly[$0]) }
            return pieces.compactMap { p, q in
                let box = Rect.null.union(p).union(q)
                return box.insetBy(-reach).intersects(other) ? (p, q, box) : nil
            }
        }
        guard let boxA = bounds(of: a), let boxB = bounds(of: b) else { return false }
        let piecesA = near(a, boxB), piecesB = near(b, boxA)
        let reach2 = reach * reach
        for (p, q, box) in piecesA {
            let reachable = box.insetBy(-reach)
            for (r, s, other) in piecesB where reachable.intersects(other)
            && StrokeHitTest.segmentDistanceSquared(p, q, r, s) <= reach2 {
                return true
            }
        }
        return false
    }

    private static func bounds(of poly: [Point]) -> Rect? {
        guard !poly.isEmpty else { return nil }
        return poly.reduce(Rect.null) { $0.union($1) }
    }
}
