import Foundation

/// Stroke's Codable form, by hand because strokes are most of every sketch
/// file and sync payload: the synthesized form spends three nested objects
/// per segment (`{"c1":{"x":…,"y":…},…}`) and encodes at half the speed.
///
///     {"id":"…","author":"Anna","color":{"r":…,"g":…,"b":…,"a":…},"width":4,
///      "start":{"x":…,"y":…},"segments":[c1x,c1y,c2x,c2y,endX,endY, …],
///      "startedAt":…,"endedAt":…}
///
/// `segments` is flat: six numbers per cubic. Dates follow the coder's
/// date strategy. A styled stroke (imported from Xournal++) adds any of
/// `"widths":[…]` (one per segment), `"fill":0.5`, `"dashes":[…]` and
/// `"blend":"multiply"` after `endedAt`; absent keys are not written, so a
/// plain stroke's bytes are what they always were, and older readers skip
/// the keys they do not know. A blend mode this version does not know
/// (written by a newer one) reads as ordinary painting.
extension Stroke {
    private enum CodingKeys: String, CodingKey {
        case id, author, color, width, start, segments, startedAt, endedAt, widths, fill, dashes, blend
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let flat = try c.decode([Double].self, forKey: .segments)
        guard flat.count % 6 == 0 else {
            throw DecodingError.dataCorruptedError(forKey: .segments, in: c, debugDescription:
                "\(flat.count) segment numbers, not a multiple of six")
        }
        var segments: [CubicSegment] = []
        segments.reserveCapacity(flat.count / 6)
        var i = 0
        while i < flat.count {
            segments.append(CubicSegment(c1: Point(flat[i], flat[i + 1]), c2: Point(flat[i + 2], flat[i + 3]),
                                         end: Point(flat[i + 4], flat[i + 5])))
            i += 6
        }
        self.init(id: try c.decode(UUID.self, forKey: .id),
                  author: try c.decode(String.self, forKey: .author),
                  color: try c.decode(RGBA.self, forKey: .color),
                  width: try c.decode(Double.self, forKey: .width),
                  start: try c.decode(Point.self, forKey: .start),
                  segments: segments,
                  startedAt: try c.decode(Date.self, forKey: .startedAt),
                  endedAt: try c.decode(Date.self, forKey: .endedAt),
                  widths: try c.decodeIfPresent([Double].self, forKey: .widths),
                  fill: try c.decodeIfPresent(Double.self, forKey: .fill),
                  dashes: try c.decodeIfPresent([Double].self, forKey: .dashes),
                  blend: try c.decodeIfPresent(String.self, forKey: .blend).flatMap(StrokeBlend.init(rawValue:)))
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(author, forKey: .author)
        try c.encode(color, forKey: .color)
        try c.encode(width, forKey: .width)
        try c.encode(start, forKey: .start)
        var flat: [Double] = []
        flat.reserveCapacity(segments.count * 6)
        for s in segments {
            flat.append(s.c1.x); flat.append(s.c1.y)
            flat.append(s.c2.x); flat.append(s.c2.y)
            flat.append(s.end.x); flat.append(s.end.y)
        }
        try c.encode(flat, forKey: .segments)
        try c.encode(startedAt, forKey: .startedAt)
        try c.encode(endedAt, forKey: .endedAt)
        try c.encodeIfPresent(widths, forKey: .widths)
        try c.encodeIfPresent(fill, forKey: .fill)
        try c.encodeIfPresent(dashes, forKey: .dashes)
        try c.encodeIfPresent(blend?.rawValue, forKey: .blend)
    }
}
