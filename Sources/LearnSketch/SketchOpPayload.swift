import Foundation

/// The JSON encoding of one `SketchOp` in the device's store and on the
/// school server, version 1.
///
/// Deliberately independent of `SketchOp`'s synthesized `Codable` (which the
/// file formats may change): rows written today must decode forever, and the
/// same bytes go to the sync server. Numbers are flat arrays to keep payloads
/// small and encoding fast (appends happen after every stroke); dates are
/// integer Unix milliseconds; ids are lowercase UUID strings.
///
/// ```json
/// {"kind":"addStroke","id":"…","author":"…","color":[r,g,b,a],"width":4,
///  "start":[x,y],"segments":[c1x,c1y,c2x,c2y,ex,ey,…],"startedAt":ms,"endedAt":ms}
/// … a styled stroke (from Xournal++) adds any of ,"widths":[w,…] (one per
///   segment),"fill":opacity,"dashes":[on,off,…],"blend":"multiply"
///   (absent keys are not written; older readers ignore them)
/// {"kind":"eraseStroke","stroke":"…","by":"…","at":ms}
/// {"kind":"clear","by":"…","at":ms}
/// ```
public enum SketchOpPayload {
    public enum Kind: String, Codable, Sendable {
        case addStroke, eraseStroke, clear
    }

    public static func kind(of op: SketchOp) -> Kind {
        switch op {
        case .addStroke: .addStroke
        case .eraseStroke: .eraseStroke
        case .clear: .clear
        }
    }

    public static func encode(_ op: SketchOp) throws -> Data {
        let encoder = JSONEncoder()
        switch op {
        case .addStroke(let s):
            return try encoder.encode(AddStroke(s))
        case .eraseStroke(let id, let by, let at):
            return try encoder.encode(EraseStroke(kind: .eraseStroke, stroke: id.lowercasedText,
                                                  by: by, at: UnixMilliseconds.milliseconds(at)))
        case .clear(let by, let at):
            return try encoder.encode(Clear(kind: .clear, by: by, at: UnixMilliseconds.milliseconds(at)))
        }
    }

    /// Returns nil for bytes that are not a valid version 1 op: not JSON,
    /// another kind, a field missing or of another type. Keys it does not
    /// know are passed over (a newer version may add some).
    public static func decode(_ data: Data) -> SketchOp? {
        data.withUnsafeBytes { raw in
            raw.withMemoryRebound(to: UInt8.self) { bytes in
                var reader = PayloadJSONReader(bytes)
                guard let values = reader.topLevelValues(of: keys) else { return nil }
                return decode(values, &reader)
            }
        }
    }

    private static let keys = ["kind", "id", "author", "color", "width", "start", "segments", "startedAt", "endedAt",
                               "widths", "fill", "dashes", "blend", "stroke", "by", "at"]

    private static func decode(_ values: [String: Int], _ reader: inout PayloadJSONReader) -> SketchOp? {
        func string(_ key: String) -> String? { values[key].flatMap { reader.string(at: $0) } }
        func double(_ key: String) -> Double? { values[key].flatMap { reader.double(at: $0) } }
        func doubles(_ key: String) -> [Double]? { values[key].flatMap { reader.doubles(at: $0) } }
        // Times beyond 2^53 ms (285,000 years) would not come back the
        // same through a Date; no real op has them.
        func milliseconds(_ key: String) -> Int64? {
            values[key].flatMap { reader.int64(at: $0) }.flatMap { (-(1 << 53)...(1 << 53)).contains($0) ? $0 : nil }
        }
        // An optional key: absent or null is nil; anything else must read.
        func optional<T>(_ key: String, _ read: (String) -> T?) -> T?? {
            guard let at = values[key], !reader.isNull(at: at) else { return .some(nil) }
            return read(key).map { .some($0) }
        }
        guard let kind = string("kind").flatMap(Kind.init(rawValue:)) else { return nil }
        switch kind {
        case .addStroke:
            guard let id = string("id").flatMap(UUID.init(uuidString:)), let author = string("author"),
                  let color = doubles("color"), color.count == 4, let width = double("width"),
                  let start = doubles("start"), start.count == 2,
                  let segments = doubles("segments"), segments.count % 6 == 0,
                  let startedAt = milliseconds("startedAt"), let endedAt = milliseconds("endedAt"),
                  let widths = optional("widths", doubles), let fill = optional("fill", double),
                  let dashes = optional("dashes", doubles), let blend = optional("blend", string)
            else { return nil }
            let segs = stride(from: 0, to: segments.count, by: 6).map { i in
                CubicSegment(c1: Point(segments[i], segments[i + 1]),
                             c2: Point(segments[i + 2], segments[i + 3]),
                             end: Point(segments[i + 4], segments[i + 5]))
            }
            return .addStroke(Stroke(id: id, author: author,
                                     color: RGBA(r: color[0], g: color[1], b: color[2], a: color[3]),
                                     width: width, start: Point(start[0], start[1]), segments: segs,
                                     startedAt: UnixMilliseconds.date(startedAt), endedAt: UnixMilliseconds.date(endedAt),
                                     widths: widths, fill: fill, dashes: dashes,
                                     // A mode of a newer version draws as ordinary ink here.
                                     blend: blend.flatMap(StrokeBlend.init(rawValue:))))
        case .eraseStroke:
            guard let stroke = string("stroke").flatMap(UUID.init(uuidString:)), let by = string("by"),
                  let at = milliseconds("at") else { return nil }
            return .eraseStroke(id: stroke, by: by, at: UnixMilliseconds.date(at))
        case .clear:
            guard let by = string("by"), let at = milliseconds("at") else { return nil }
            return .clear(by: by, at: UnixMilliseconds.date(at))
        }
    }

    private struct AddStroke: Encodable {
        var kind: Kind
        var id: String
        var author: String
        var color: [Double]
        var width: Double
        var start: [Double]
        var segments: [Double]
        var startedAt: Int64
        var endedAt: Int64
        // A Xournal++ stroke's styles (see `Stroke`); nil ones are not
        // written, so a plain stroke's payload is unchanged.
        var widths: [Double]?
        var fill: Double?
        var dashes: [Double]?
        var blend: String?

        init(_ s: Stroke) {
            kind = .addStroke
            id = s.id.lowercasedText
            author = s.author
            color = [s.color.r, s.color.g, s.color.b, s.color.a]
            width = s.width
            start = [s.start.x, s.start.y]
            segments = []
            segments.reserveCapacity(s.segments.count * 6)
            for seg in s.segments {
                segments += [seg.c1.x, seg.c1.y, seg.c2.x, seg.c2.y, seg.end.x, seg.end.y]
            }
            startedAt = UnixMilliseconds.milliseconds(s.startedAt)
            endedAt = UnixMilliseconds.milliseconds(s.endedAt)
            widths = s.widths
            fill = s.fill
            dashes = s.dashes
            blend = s.blend?.rawValue
        }
    }

    private struct EraseStroke: Encodable {
        var kind: Kind
        var stroke: String
        var by: String
        var at: Int64
    }

    private struct Clear: Encodable {
        var kind: Kind
        var by: String
        var at: Int64
    }
}
