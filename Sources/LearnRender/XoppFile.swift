import LearnModel

/// Xournal++ `.xopp` files on disk: gzip (zlib) around LearnModel's XML, or
/// the zip archive recent Xournal++ writes (`XoppZip`). Plain, uncompressed
/// XML is read too, since Xournal++ itself accepts it.
public enum XoppFile {
    public static func read(_ path: String) throws(SketchIOError) -> SketchDocument {
        try decode(FileBytes.read(path), path: path)
    }

    public static func write(_ doc: SketchDocument, to path: String) throws(SketchIOError) {
        try FileBytes.write(data(doc), to: path)
    }

    /// The sketch in a file's bytes; the canvas takes the page's size.
    public static func decode(_ bytes: [UInt8], path: String,
                              progress: SketchReadProgress = .none) throws(SketchIOError) -> SketchDocument {
        try decodeReporting(bytes, path: path, progress: progress).document
    }

    /// The sketch and what it left out.
    public static func decodeReporting(_ bytes: [UInt8], path: String,
                                       progress: SketchReadProgress = .none) throws(SketchIOError) -> SketchImport.Result {
        let imported = try importing(bytes, path: path, progress: progress)
        return SketchImport.Result(document: imported.document(name: name(of: imported, path: path)),
                                   leftOut: imported.leftOut)
    }

    /// Everything the import found, including what it had to leave out.
    public static func importing(_ bytes: [UInt8], path: String,
                                 progress: SketchReadProgress = .none) throws(SketchIOError) -> XoppImport {
        if Gzip.isGzip(bytes) || XoppZip.isZip(bytes) { progress.report(.unpacking) }
        let xml = try unpack(bytes, path: path)
        try progress.check(path)
        progress.report(.readingStrokes)
        do {
            return try XoppFormat.parse(xml)
        } catch {
            throw .notASketch(path: path, reason: reason(error))
        }
    }

    /// Gzipped XML, as Xournal++ writes it.
    public static func data(_ doc: SketchDocument) throws(SketchIOError) -> [UInt8] {
        do {
            return try Gzip.compress(XoppFormat.export(doc))
        } catch {
            throw .unwritable(path: doc.meta.name, reason: error.description)
        }
    }

    private static func unpack(_ bytes: [UInt8], path: String) throws(SketchIOError) -> [UInt8] {
        if Gzip.isGzip(bytes) {
            do {
                return try Gzip.decompress(bytes)
            } catch {
                throw .notASketch(path: path, reason: error.description)
            }
        }
        if XoppZip.isZip(bytes) {
            do {
                return try XoppZip.document(bytes)
            } catch {
                throw .notASketch(path: path, reason: error.description)
            }
        }
        guard SketchImport.sniff(bytes) == .xopp else {
            throw .notASketch(path: path, reason: bytes.isEmpty
                ? "the file is empty"
                : "a .xopp file is gzip-compressed, a zip archive or plain XML, and this is none of them")
        }
        return bytes
    }

    /// Xournal++ titles every file "Xournal++ document - see …"; such a title
    /// says nothing, so the file's name is used instead.
    private static func name(of imported: XoppImport, path: String) -> String {
        if let title = imported.title, !title.isEmpty, !title.hasPrefix("Xournal++ document") { return title }
        var base = Substring(path.split(separator: "/").last ?? Substring(path))
        if let dot = base.lastIndex(of: "."), dot != base.startIndex { base = base[..<dot] }
        return String(base)
    }

    private static func reason(_ error: XoppError) -> String {
        switch error {
        case .notXournal: "it is not a Xournal++ document"
        case .gzipCompressed: "it is compressed twice"
        case .malformed(let line, let why): "the Xournal++ document is damaged (line \(line): \(why))"
        case .outOfLimits(let why): why.errorDescription ?? "a value is out of range"
        }
    }
}
