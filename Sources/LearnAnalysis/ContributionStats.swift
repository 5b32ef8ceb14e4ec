import Foundation
import LearnSketch

/// How much one pupil did in a sketch. Counts cover everything drawn,
/// including ink later erased or cleared: the teacher asks "who took part",
/// not "whose ink survived".
public struct AuthorContribution: Hashable, Sendable {
    public var author: String
    /// Strokes drawn, erased or not.
    public var strokes: Int
    /// Length of the ink's centre lines in canvas units; a dot adds nothing.
    public var inkLength: Double
    /// Seconds spent drawing; see `ContributionStats.activeGap` for the rule.
    public var activeSeconds: TimeInterval
    /// This pupil's strokes erased by someone else.
    public var erasedByOthers: Int
    /// Other pupils' strokes this pupil erased. Erasing one's own ink is
    /// ordinary correcting and is not counted; clears are left to
    /// `ConflictSignals`, since a clear is usually the host's decision.
    public var erasedOthers: Int

    public init(author: String, strokes: Int = 0, inkLength: Double = 0, activeSeconds: TimeInterval = 0,
                erasedByOthers: Int = 0, erasedOthers: Int = 0) {
        self.author = author; self.strokes = strokes; self.inkLength = inkLength
        self.activeSeconds = activeSeconds; self.erasedByOthers = erasedByOthers; self.erasedOthers = erasedOthers
    }
}

/// Per-pupil contribution to one sketch, in one pass over its op log (plus a
/// sort of each pupil's stroke intervals).
public struct ContributionStats: Hashable, Sendable {
    /// Active time is the union of the pupil's stroke intervals
    /// (startedAt...endedAt), where a pause between consecutive strokes
    /// shorter than this also counts as active: lifting the pen to start the
    /// next line is still drawing, while a longer pause is looking or talking.
    /// A pause of exactly this length is not counted.
    public static let activeGap: TimeInterval = 5

    /// Everyone who drew or erased, most strokes first, then by name.
    public let authors: [AuthorContribution]
    public let totalInkLength: Double
    private let indexOfAuthor: [String: Int]

    public init(document: SketchDocument) {
        var byAuthor: [String: AuthorContribution] = [:]
        var intervals: [String: [(start: Date, end: Date)]] = [:]
        var authorOfStroke: [UUID: String] = [:]

        for op in document.ops {
            switch op {
            case .addStroke(let s):
                byAuthor[s.author, default: AuthorContribution(author: s.author)].strokes += 1
                byAuthor[s.author]!.inkLength += Self.inkLength(of: s)
                intervals[s.author, default: []].append((min(s.startedAt, s.endedAt), s.endedAt))
                authorOfStroke[s.id] = s.author
            case .eraseStroke(let id, let by, _):
                guard let victim = authorOfStroke[id], victim != by else { continue }
                byAuthor[by, default: AuthorContribution(author: by)].erasedOthers += 1
                byAuthor[victim, default: AuthorContribution(author: victim)].erasedByOthers += 1
            case .clear:
                break
            }
        }
        for (author, spans) in intervals {
            byAuthor[author]!.activeSeconds = Self.activeSeconds(of: spans)
        }

        let authors = byAuthor.values.sorted {
            $0.strokes != $1.strokes ? $0.strokes > $1.strokes : $0.author < $1.author
        }
        self.authors = authors
        // Summed in sorted order so the total does not depend on hash order.
        totalInkLength = authors.reduce(0) { $0 + $1.inkLength }
        indexOfAuthor = Dictionary(uniqueKeysWithValues: authors.enumerated().map { ($1.author, $0) })
    }

    public func contribution(of author: String) -> AuthorContribution? {
        indexOfAuthor[author].map { authors[$0] }
    }

    /// The author's fraction of all ink drawn, by length; 0 when nobody drew
    /// any length (only dots, or nothing).
    public func share(of author: String) -> Double {
        guard totalInkLength > 0, let c = contribution(of: author) else { return 0 }
        return c.inkLength / totalInkLength
    }

    /// Length of the stroke's flattened centre line, the same polyline the
    /// exporters and hit-testing use.
    public static func inkLength(of stroke: Stroke) -> Double {
        let points = stroke.flattened()
        var total = 0.0
        for i in points.indices.dropFirst() { total += points[i - 1].distance(to: points[i]) }
        return total.isFinite ? total : 0
    }

    /// Length of the union of `spans`, bridging pauses shorter than `activeGap`.
    static func activeSeconds(of spans: [(start: Date, end: Date)]) -> TimeInterval {
        let sorted = spans.sorted { $0.start < $1.start }
        guard var current = sorted.first else { return 0 }
        var total: TimeInterval = 0
        for span in sorted.dropFirst() {
            if span.start.timeIntervalSince(current.end) < activeGap {
                // Overlapping, touching or a short pause: one stretch of drawing.
                current.end = max(current.end, span.end)
            } else {
                total += current.end.timeIntervalSince(current.start)
                current = span
            }
        }
        return total + current.end.timeIntervalSince(current.start)
    }
}
