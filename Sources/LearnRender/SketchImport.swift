import LearnModel

/// Reads a sketch file of either kind we understand. The extension decides;
/// a file without a known one is recognised by its first bytes.
public enum SketchImport {
    /// A sketch read from a file, and what the file held that it could not.
    public struct Result: Sendable {
        public var document: SketchDocument
        public var leftOut: ImportLeftOut
        public init(document: SketchDocument, leftOut: ImportLeftOut = .nothing) {
            self.document = document
            self.leftOut = leftOut
        }
    }

    public static func read(_ path: String, progress: SketchReadProgress = .none) throws(SketchIOError) -> SketchDocument {
        try readReporting(path, progress: progress).document
    }

    /// The sketch and what was left out of it, for telling the person.
    public static func readReporting(_ path: String,
                                     progress: SketchReadProgress = .none) throws(SketchIOError) -> Result {
        let kind = SketchFileKind(path: path)
        if let kind, !kind.isSketchData {
            throw .notASketch(path: path, reason: "a .\(kind.rawValue) file holds a picture, not strokes; "
                + "open a .xopp or .teamsketch file")
        }
        let bytes = try FileBytes.read(path, progress: progress)
        try progress.check(path)
        switch kind ?? sniff(bytes) {
        case .xopp: return try XoppFile.decodeReporting(bytes, path: path, progress: progress)
        case .teamsketch:
            progress.report(.readingStrokes)
            return Result(document: try TeamsketchFile.decode(bytes, path: path))
        default:
            throw .notASketch(path: path, reason: "it is neither an Xournal++ (.xopp) nor a Teamsketch file")
        }
    }

    /// Guesses the kind from content: gzip, zip or XML is Xournal++, JSON is ours.
    public static func sniff(_ bytes: [UInt8]) -> SketchFileKind? {
        if Gzip.isGzip(bytes) || XoppZip.isZip(bytes) { return .xopp }
        guard let first = bytes.first(where: { ![0x20, 0x09, 0x0a, 0x0d, 0xef, 0xbb, 0xbf].contains($0) }) else {
            return nil
        }
        switch first {
        case UInt8(ascii: "<"): return .xopp
        case UInt8(ascii: "{"): return .teamsketch
        default: return nil
        }
    }
}
