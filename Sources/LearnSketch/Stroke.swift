import Foundation

/// A finished stroke: immutable once made. A stroke without segments is a dot
/// of radius `width` at `start`: a tap leaves a visible dot, as a pen would.
///
/// Strokes drawn in Teamsketch are plain: one colour, one width. Strokes
/// imported from Xournal++ may carry its styles too (`widths`, `fill`,
/// `dashes`, `blend`). Each is optional and left out of every encoding when
/// absent, so plain strokes encode byte for byte as before the styles
/// existed, and older apps read the styled ones as plain strokes.
public struct Stroke: Hashable, Codable, Sendable, Identifiable {
    public var id: UUID
    public var author: String
    /// Colour and width are stored as values, not pen indices, so strokes
    /// imported from Xournal++ keep any colour and width they had.
    public var color: RGBA
    /// The pen's width; for a stroke with `widths`, the nominal width
    /// Xournal++ keeps beside them (the pen's setting).
    public var width: Double
    public var start: Point
    public var segments: [CubicSegment]
    public var startedAt: Date
    public var endedAt: Date
    /// Pressure: each segment's own width, one per segment, in canvas units.
    /// Xournal++ strokes each piece of a pressure stroke on its own at the
    /// width of the point it starts from; this is that list. A width per
    /// segment rather than sub-strokes, because the stroke stays one thing
    /// to erase, undo, sync and export back, and costs one number per
    /// segment only on the strokes that have it.
    public var widths: [Double]?
    /// A filled shape: the opacity (0…1) of the fill, in the stroke's own
    /// colour, as Xournal++'s `fill` (its alpha 0–255). The stroke's path is
    /// closed and filled, then stroked over.
    public var fill: Double?
    /// Dash pattern: lengths of line and gap in turn, in canvas units,
    /// repeated along the stroke (Cairo's and Xournal++'s dashes; with round
    /// caps a length of 0 is a dot).
    public var dashes: [Double]?
    /// How the ink combines with what is under it; nil is ordinary painting.
    public var blend: StrokeBlend?

    public init(id: UUID = UUID(), author: String, color: RGBA, width: Double, start: Point,
                segments: [CubicSegment], startedAt: Date, endedAt: Date, widths: [Double]? = nil,
                fill: Double? = nil, dashes: [Double]? = nil, blend: StrokeBlend? = nil) {
        self.id = id; self.author = author; self.color = color; self.width = width
        self.start = start; self.segments = segments; self.startedAt = startedAt; self.endedAt = endedAt
        self.widths = widths; self.fill = fill; self.dashes = dashes; self.blend = blend
    }

    public var isDot: Bool { segments.isEmpty }

    /// No style beyond colour and width: what the pens draw, and what the
    /// fast ink path and live drawing handle.
    public var isPlain: Bool { widths == nil && fill == nil && dashes == nil && blend == nil }

    /// The widest the line gets: `width`, or the widest pressure width.
    public var maxWidth: Double {
        guard let widths else { return width }
        var m = width
        for w in widths where w > m { m = w }
        return m
    }

    /// The width segment `index` is drawn with.
    @inline(__always)
    public func width(ofSegment index: Int) -> Double {
        guard let widths, index < widths.count else { return width }
        return widths[index]
    }

    /// Bounds of the ink, including the line width.
    public var bounds: Rect {
        var r = Rect.null.union(start)
        var p = start
        for s in segments { r = r.union(s.bounds(from: p)); p = s.end }
        let pad = isDot ? width : maxWidth / 2
        return r.insetBy(-pad)
    }
}

/// How a stroke's ink combines with what is already drawn.
public enum StrokeBlend: String, Hashable, Codable, Sendable, CaseIterable {
    /// Multiplies onto what is under it, like a highlighter (Cairo's
    /// MULTIPLY, which Xournal++ draws its highlighters with): yellow over
    /// black ink stays black, over white paper it is yellow.
    case multiply
}
