import LearnModel

/// What a screen reader says the sheet shows: how many lines, and who drew
/// them, in the order they first drew. Counted from the document the
/// canvas holds; the app words it.
public struct SheetSummary: Equatable, Sendable {
    public var lines: Int
    /// The first few authors by name; `otherAuthors` counts the rest, so a
    /// class of thirty is not read out name by name.
    public var authors: [String]
    public var otherAuthors: Int

    public static let namedAuthors = 4

    public init(lines: Int, authors: [String], otherAuthors: Int) {
        self.lines = lines; self.authors = authors; self.otherAuthors = otherAuthors
    }

    public init(_ strokes: [Stroke]) {
        var seen = Set<String>(), order: [String] = []
        for s in strokes where !s.author.isEmpty && seen.insert(s.author).inserted { order.append(s.author) }
        self.init(lines: strokes.count, authors: Array(order.prefix(Self.namedAuthors)),
                  otherAuthors: max(0, order.count - Self.namedAuthors))
    }
}
