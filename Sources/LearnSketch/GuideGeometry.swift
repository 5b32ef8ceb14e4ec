/// One straight guide line on the canvas, in canvas units.
public struct GuideLine: Hashable, Sendable {
    public enum Kind: Hashable, Sendable {
        /// Squared-paper grid line.
        case grid
        /// Writing line of lined paper.
        case rule
        /// The vertical margin line of lined paper; renderers may tint it.
        case margin
    }

    public var from: Point
    public var to: Point
    public var kind: Kind

    public init(from: Point, to: Point, kind: Kind) { self.from = from; self.to = to; self.kind = kind }
}

/// The lines a sketch's line guides consist of (none, squared like a maths
/// book, or lined like a writing book). Pure values, so the canvas, the exporters and the tests all agree;
/// the app draws them with Cairo under the ink.
public enum GuideGeometry {
    /// Squared paper: a grid cell of 40 units is 2.5 % of the 1600-unit canvas,
    /// close to the 5 mm squares of a school exercise book.
    public static let gridSpacing = 40.0
    /// Lined paper: 50 units between writing lines, wide enough for the big
    /// letters of 6–8-year-olds.
    public static let lineSpacing = 50.0
    /// Lined paper leaves the top band free, like a page heading.
    public static let topMargin = 100.0
    /// Lined paper's vertical margin line, from the left edge.
    public static let leftMargin = 120.0

    public static func lines(for meta: SketchMeta) -> [GuideLine] {
        lines(for: meta.guides, width: meta.width, height: meta.height)
    }

    /// Lines strictly inside the canvas (edges are the canvas border, not a guide).
    public static func lines(for guides: LineGuides, width: Double, height: Double) -> [GuideLine] {
        guard width.isFinite, height.isFinite, width > 0, height > 0 else { return [] }
        switch guides {
        case .none:
            return []
        case .squared:
            var out: [GuideLine] = []
            for x in stride(from: gridSpacing, to: width, by: gridSpacing) {
                out.append(GuideLine(from: Point(x, 0), to: Point(x, height), kind: .grid))
            }
            for y in stride(from: gridSpacing, to: height, by: gridSpacing) {
                out.append(GuideLine(from: Point(0, y), to: Point(width, y), kind: .grid))
            }
            return out
        case .lined:
            var out: [GuideLine] = []
            for y in stride(from: min(topMargin, height / 2), to: height, by: lineSpacing) {
                out.append(GuideLine(from: Point(0, y), to: Point(width, y), kind: .rule))
            }
            if leftMargin < width {
                out.append(GuideLine(from: Point(leftMargin, 0), to: Point(leftMargin, height), kind: .margin))
            }
            return out
        }
    }

    /// Only the lines that can show inside `rect` (a damaged region), so a
    /// partial redraw does not stroke the whole grid.
    public static func lines(for guides: LineGuides, width: Double, height: Double, in rect: Rect) -> [GuideLine] {
        lines(for: guides, width: width, height: height).filter {
            Rect.null.union($0.from).union($0.to).intersects(rect)
        }
    }
}
