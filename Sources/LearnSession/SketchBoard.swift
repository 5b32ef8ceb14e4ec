import Foundation
import LearnSketch

/// The sketch a session draws, as its host holds it: the authoritative
/// document, the strokes in progress, and what still fits
/// (`SketchCapacity`). It knows strokes and erases, not members or
/// connections: the session (`HostSession`) decides who may draw, stamps
/// each op with its sender and order, and sends what the board took on to
/// the members. Each change returns what it did, or nil when it did
/// nothing (a stroke id used twice, an end for no stroke in progress).
public struct SketchBoard: Sendable {
    public private(set) var document: SketchDocument
    /// Strokes in progress, in the order they began.
    public private(set) var live: [LiveStroke] = []
    /// Every stroke id ever begun, so an id cannot be used twice.
    private var strokeIDs: Set<UUID> = []
    /// Stroke pieces in the document and in the strokes in progress.
    public private(set) var segmentCount = 0
    /// What those take in a `.teamsketch` file at most (`SketchCapacity`).
    public private(set) var fileBytes = 0
    /// How much the sketch may hold; past it ops are refused.
    public var capacity = SketchCapacity.sketchFile

    public init(meta: SketchMeta) {
        document = SketchDocument(meta: meta)
    }

    // MARK: - What fits

    /// Why this stroke may not begin, if it may not.
    public func refusal(of b: StrokeBegin) -> OpRefusalReason? {
        guard WireSketchLimits.contains(b) else { return .outsideLimits }
        guard hasRoomForOp, hasRoom(forBytes: SketchCapacity.bytes(strokeBy: b.author)) else { return .sketchFull }
        let open = live.reduce(0) { $0 + ($1.sender == b.stamp.sender ? 1 : 0) }
        guard open < capacity.maxOpenStrokesPerSender else { return .tooManyOpenStrokes }
        return nil
    }

    /// Why these pieces may not be added, if they may not.
    public func refusal(of s: StrokeSegments) -> OpRefusalReason? {
        guard WireSketchLimits.contains(s.segments) else { return .outsideLimits }
        guard segmentCount + s.segments.count <= capacity.maxSegments,
              hasRoom(forBytes: s.segments.count * SketchCapacity.bytesPerSegment) else { return .sketchFull }
        return nil
    }

    /// An erase or a clear by `author` fits.
    public func hasRoomForMark(by author: String) -> Bool {
        hasRoomForOp && hasRoom(forBytes: SketchCapacity.bytes(markBy: author))
    }

    /// One more op fits: strokes in progress count, the end commits them.
    private var hasRoomForOp: Bool { document.ops.count + live.count < capacity.maxOps }

    private func hasRoom(forBytes n: Int) -> Bool { fileBytes + n <= capacity.maxFileBytes }

    /// The stroke in progress with this id, if `sender` began it.
    public func liveStroke(_ id: UUID, of sender: MemberIndex) -> LiveStroke? {
        live.first { $0.id == id && $0.sender == sender }
    }

    public func contains(stroke id: UUID) -> Bool { document.strokes.contains { $0.id == id } }

    // MARK: - Changes

    /// Begins a stroke; nil if its id was used before.
    public mutating func begin(_ b: StrokeBegin) -> LiveStroke? {
        guard strokeIDs.insert(b.strokeID).inserted else { return nil }
        let stroke = LiveStroke(begin: b)
        live.append(stroke)
        fileBytes += SketchCapacity.bytes(of: stroke)
        return stroke
    }

    /// Adds pieces to a stroke in progress; the index of the first one, or
    /// nil if there is no such stroke or the pieces do not join it.
    public mutating func extend(_ s: StrokeSegments) -> Int? {
        guard let i = live.firstIndex(where: { $0.id == s.strokeID }) else { return nil }
        let first = live[i].segments.count
        guard live[i].append(s) else { return nil }
        segmentCount += s.segments.count
        fileBytes += s.segments.count * SketchCapacity.bytesPerSegment
        return first
    }

    /// Ends a stroke in progress: it joins the document.
    public mutating func end(_ e: StrokeEnd) -> SketchOp? {
        guard let i = live.firstIndex(where: { $0.id == e.strokeID }) else { return nil }
        let stroke = live.remove(at: i)
        let op = SketchOp.addStroke(stroke.stroke(endedAt: e.time))
        document.apply(op)
        return op
    }

    /// Erases a stroke; nil if it is gone already (two members erasing one
    /// stroke at once: the second erase does nothing).
    public mutating func erase(_ e: Erase) -> SketchOp? {
        let op = SketchOp.eraseStroke(id: e.strokeID, by: e.author, at: e.time.date)
        guard document.apply(op) else { return nil }
        fileBytes += SketchCapacity.bytes(of: op)
        return op
    }

    /// A new sheet for everyone: the clear joins the document.
    public mutating func clear(_ c: Clear) -> SketchOp {
        let op = SketchOp.clear(by: c.author, at: c.time.date)
        document.apply(op)
        fileBytes += SketchCapacity.bytes(of: op)
        return op
    }

    /// The session ends: the strokes still in progress join the document
    /// as they are, in the order they would have ended, with their senders.
    public mutating func commitLive(endedAt time: WireTime) -> [(op: SketchOp, sender: MemberIndex)] {
        let committed = live.sorted(by: LiveStroke.commitOrder).map { stroke in
            (op: SketchOp.addStroke(stroke.stroke(endedAt: time)), sender: stroke.sender)
        }
        for c in committed { document.apply(c.op) }
        live = []
        return committed
    }
}
