import LearnModel

/// Reads a sketch file of either kind we understand. The extension decides;
/// a file without a known one is recognised by its first bytes.
public enum SketchImport {
    public static func read(_ path: String, progress: SketchReadProgress = .none) throws(SketchIOError) -> SketchDocument {
        let kind = SketchFileKind(path: path)
        if let kind, !kind.isSketchData {
            throw .notASketch(path: path, reason: "a .\(kind.rawValue) file holds a picture, not strokes; "
                + "open a .xopp or .teamsketch file")
        }
        let bytes = try FileBytes.read(path, progress: progress)
        try progress.check(path)
        switch kind ?? sniff(bytes) {
        case .xopp: return try XoppFile.decode(bytes, path: path, progress: progress)
        case .teamsketch:
            progress.report(.readingStrokes)
            return try TeamsketchFile.decode(bytes, path: path)
        default:
            throw .notASketch(path: path, reason: "it is neither an Xournal++ (.xopp) nor a Teamsketch file")
        }
    }

    /// Guesses the kind from content: gzip or XML is Xournal++, JSON is ours.
    public static func sniff(_ bytes: [UInt8]) -> SketchFileKind? {
        if Gzip.isGzip(bytes) { return .xopp }
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
