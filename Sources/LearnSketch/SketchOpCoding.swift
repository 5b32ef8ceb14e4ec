import Foundation

/// SketchOp's Codable form, written out by hand because it is stored in files
/// and sent to the server: the synthesized form of an enum with associated
/// values (`{"addStroke":{"_0":…}}`) changes shape with any case rename and
/// reads badly. Every op is one flat object with an explicit "kind":
///
///     {"kind":"addStroke","stroke":{…}}
///     {"kind":"eraseStroke","id":"…","by":"Anna","at":…}
///     {"kind":"clear","by":"Anna","at":…}
///
/// Dates follow the encoder's date strategy.
extension SketchOp {
    public enum Kind: String, Codable, Sendable, CaseIterable {
        case addStroke, eraseStroke, clear
    }

    public var kind: Kind {
        switch self {
        case .addStroke: .addStroke
        case .eraseStroke: .eraseStroke
        case .clear: .clear
        }
    }

    private enum CodingKeys: String, CodingKey {
        case kind, stroke, id, by, at
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let raw = try c.decode(String.self, forKey: .kind)
        guard let kind = Kind(rawValue: raw) else {
            throw DecodingError.dataCorruptedError(forKey: .kind, in: c, debugDescription: "unknown op kind '\(raw)'")
        }
        switch kind {
        case .addStroke:
            self = .addStroke(try c.decode(Stroke.self, forKey: .stroke))
        case .eraseStroke:
            self = .eraseStroke(id: try c.decode(UUID.self, forKey: .id), by: try c.decode(String.self, forKey: .by),
                                at: try c.decode(Date.self, forKey: .at))
        case .clear:
            self = .clear(by: try c.decode(String.self, forKey: .by), at: try c.decode(Date.self, forKey: .at))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(kind, forKey: .kind)
        switch self {
        case .addStroke(let stroke):
            try c.encode(stroke, forKey: .stroke)
        case .eraseStroke(let id, let by, let at):
            try c.encode(id, forKey: .id)
            try c.encode(by, forKey: .by)
            try c.encode(at, forKey: .at)
        case .clear(let by, let at):
            try c.encode(by, forKey: .by)
            try c.encode(at, forKey: .at)
        }
    }
}
