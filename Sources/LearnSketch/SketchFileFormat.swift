import Foundation

/// Why a `.teamsketch` file could not be read or written.
public enum SketchFileError: Error, Hashable, Sendable, LocalizedError {
    /// Not our file at all (another format, random bytes, a JSON of something else).
    case notASketch
    /// Ours, but written by a newer (or impossible) version of the format.
    case unsupportedVersion(Int)
    /// Ours, but damaged: truncated, edited by hand, missing fields.
    case corrupt(String)
    /// The document holds values JSON cannot carry (NaN or infinite coordinates).
    case unencodable(String)
    /// Ours and well-formed, but holding values no real sketch has (a page a
    /// hundred million units tall, a date in the year 300 billion).
    case outOfLimits(SketchLimitError)

    public var errorDescription: String? {
        switch self {
        case .notASketch: "This file is not a Teamsketch sketch."
        case .unsupportedVersion(let v):
            "This sketch was saved in format version \(v), which this version of Teamsketch cannot read."
        case .corrupt(let why): "This sketch file is damaged (\(why))."
        case .unencodable(let why): "The sketch cannot be saved (\(why))."
        case .outOfLimits(let why): "This sketch file cannot be opened: \(why.errorDescription ?? "")"
        }
    }
}

/// Our own sketch file (`.teamsketch`): versioned JSON holding the sketch's
/// parameters and its whole op log, so a reopened sketch can still be
/// replayed and attributed.
///
///     {"format":"teamsketch","version":1,"meta":{…},"ops":[…]}
///
/// Dates are Double seconds since 1970-01-01 UTC: exact enough for replay
/// (well under a microsecond), language-neutral, and cheap to parse. Keys are
/// sorted so the same document always gives the same bytes.
public enum SketchFileFormat {
    public static let fileExtension = "teamsketch"
    public static let formatName = "teamsketch"
    public static let currentVersion = 1
    public static let mimeType = "application/x-teamsketch+json"

    public static func encode(_ doc: SketchDocument) throws(SketchFileError) -> Data {
        let file = FileV1(format: formatName, version: currentVersion, meta: MetaV1(doc.meta), ops: doc.ops)
        do {
            return try makeEncoder().encode(file)
        } catch let error as EncodingError {
            throw .unencodable(describe(error))
        } catch {
            throw .unencodable(String(describing: error))
        }
    }

    public static func decode(_ data: Data) throws(SketchFileError) -> SketchDocument {
        let decoder = makeDecoder()
        let header: Header
        do {
            header = try decoder.decode(Header.self, from: data)
        } catch {
            // A truncated file of ours is still recognisably ours: call it
            // damaged rather than foreign, so the teacher knows what happened.
            guard looksLikeOurs(data) else { throw .notASketch }
            if let e = error as? DecodingError, case .dataCorrupted = e {
                throw .corrupt("not valid JSON, perhaps cut short")
            }
            throw .corrupt((error as? DecodingError).map(describe) ?? String(describing: error))
        }
        guard header.format == formatName else { throw .notASketch }
        guard let version = header.version else { throw .corrupt("missing version") }
        guard version == currentVersion else { throw .unsupportedVersion(version) }

        let file: FileV1
        do {
            file = try decoder.decode(FileV1.self, from: data)
        } catch let error as DecodingError {
            throw .corrupt(describe(error))
        } catch {
            throw .corrupt(String(describing: error))
        }
        let doc = SketchDocument(meta: try file.meta.validated(), ops: file.ops)
        do {
            try SketchValidation.check(doc)
        } catch {
            throw .outOfLimits(error)
        }
        return doc
    }

    // MARK: - Wire types

    /// Only the fields every version must keep, read first so a newer file
    /// reports its version instead of a confusing field error.
    private struct Header: Decodable {
        var format: String?
        var version: Int?
    }

    private struct FileV1: Codable {
        var format: String
        var version: Int
        var meta: MetaV1
        var ops: [SketchOp]
    }

    /// The file's own copy of SketchMeta, so renaming a Swift property can never
    /// silently change the format, and values are checked on the way in.
    private struct MetaV1: Codable {
        var id: UUID
        var name: String
        var guides: String
        var timeLimitMinutes: Int
        var width: Double
        var height: Double
        var createdAt: Date

        init(_ m: SketchMeta) {
            id = m.id; name = m.name; guides = m.guides.rawValue; timeLimitMinutes = m.timeLimitMinutes
            width = m.width; height = m.height; createdAt = m.createdAt
        }

        func validated() throws(SketchFileError) -> SketchMeta {
            guard let g = LineGuides(rawValue: guides) else { throw .corrupt("unknown line guides '\(guides)'") }
            guard SketchLimits.timeLimitMinutes.contains(timeLimitMinutes) else {
                throw .corrupt("time limit \(timeLimitMinutes) minutes is out of range")
            }
            guard width.isFinite, height.isFinite, width > 0, height > 0 else {
                throw .corrupt("canvas size \(width) × \(height) is invalid")
            }
            return SketchMeta(id: id, name: name, guides: g, timeLimitMinutes: timeLimitMinutes, width: width,
                              height: height, createdAt: createdAt)
        }
    }

    // MARK: - Helpers

    private static func makeEncoder() -> JSONEncoder {
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        e.dateEncodingStrategy = .secondsSince1970
        return e
    }

    private static func makeDecoder() -> JSONDecoder {
        let d = JSONDecoder()
        d.dateDecodingStrategy = .secondsSince1970
        return d
    }

    private static func looksLikeOurs(_ data: Data) -> Bool {
        // Lossy decoding: the cut may fall inside a multi-byte character.
        let text = String(decoding: data.prefix(512), as: UTF8.self)
        return text.contains("\"format\"") && text.contains("\"\(formatName)\"")
    }

    private static func describe(_ error: DecodingError) -> String {
        func path(_ ctx: DecodingError.Context) -> String {
            let p = ctx.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
            return p.isEmpty ? "top level" : String(p.drop(while: { $0 == "." }))
        }
        switch error {
        case .keyNotFound(let key, let ctx):
            return "missing '\(key.stringValue)' at \(path(ctx))"
        case .typeMismatch(_, let ctx), .valueNotFound(_, let ctx):
            return "wrong value at \(path(ctx))"
        case .dataCorrupted(let ctx):
            return "\(ctx.debugDescription) at \(path(ctx))"
        @unknown default:
            return String(describing: error)
        }
    }

    private static func describe(_ error: EncodingError) -> String {
        switch error {
        case .invalidValue(let value, _):
            return "invalid value \(value)"
        @unknown default:
            return String(describing: error)
        }
    }
}
