import Foundation

public enum LineGuides: String, CaseIterable, Codable, Sendable {
    case none, squared, lined
}

public struct SketchMeta: Hashable, Codable, Sendable {
    public var id: UUID
    public var name: String
    public var guides: LineGuides
    /// 0 means no limit; at most 120 minutes, longer than any lesson.
    public var timeLimitMinutes: Int
    public var width: Double
    public var height: Double
    public var createdAt: Date

    public static let defaultWidth = 1600.0
    public static let defaultHeight = 1000.0

    public init(id: UUID = UUID(), name: String, guides: LineGuides = .none, timeLimitMinutes: Int = 0,
                width: Double = SketchMeta.defaultWidth, height: Double = SketchMeta.defaultHeight,
                createdAt: Date = Date()) {
        self.id = id; self.name = name; self.guides = guides
        self.timeLimitMinutes = min(max(timeLimitMinutes, SketchLimits.timeLimitMinutes.lowerBound),
                                    SketchLimits.timeLimitMinutes.upperBound)
        self.width = width; self.height = height; self.createdAt = createdAt
    }
}

/// What happened to a sketch, in order. Erasing and clearing are ops, never
/// mutations, so replay, catch-up, sync and undo all read one log.
public enum SketchOp: Hashable, Codable, Sendable {
    case addStroke(Stroke)
    case eraseStroke(id: UUID, by: String, at: Date)
    case clear(by: String, at: Date)

    public var date: Date {
        switch self {
        case .addStroke(let s): s.endedAt
        case .eraseStroke(_, _, let at), .clear(_, let at): at
        }
    }
}

/// A sketch: its parameters and its op log. `strokes` is the visible ink,
/// kept up to date as ops are applied so drawing never re-reads the log.
public struct SketchDocument: Hashable, Sendable {
    public var meta: SketchMeta
    public private(set) var ops: [SketchOp] = []
    public private(set) var strokes: [Stroke] = []
    /// Ids of `strokes`, so a duplicate check costs O(1) and building a
    /// 5,000-stroke document is not quadratic.
    private var visibleIDs: Set<UUID> = []

    public init(meta: SketchMeta, ops: [SketchOp] = []) {
        self.meta = meta
        for op in ops { apply(op) }
    }

    /// Applies one op. Returns false (and changes nothing) for an op that has
    /// no effect: an erase of an unknown or already erased stroke, or a second
    /// copy of a stroke id already in the log.
    @discardableResult
    public mutating func apply(_ op: SketchOp) -> Bool {
        switch op {
        case .addStroke(let s):
            guard visibleIDs.insert(s.id).inserted else { return false }
            strokes.append(s)
        case .eraseStroke(let id, _, _):
            guard visibleIDs.remove(id) != nil, let i = strokes.lastIndex(where: { $0.id == id }) else { return false }
            strokes.remove(at: i)
        case .clear:
            strokes.removeAll()
            visibleIDs.removeAll()
        }
        ops.append(op)
        return true
    }

    /// The visible strokes after every op up to and including `date`.
    public func strokes(at date: Date) -> [Stroke] {
        SketchDocument(meta: meta, ops: ops.filter { $0.date <= date }).strokes
    }

    /// The visible strokes after the first `count` ops (replay by step).
    public func strokes(afterOps count: Int) -> [Stroke] {
        SketchDocument(meta: meta, ops: Array(ops.prefix(max(0, count)))).strokes
    }
}
