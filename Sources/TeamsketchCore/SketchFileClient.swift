import Foundation
import LearnModel
import LearnRender

/// Reading and writing sketch files (.xopp, .teamsketch, and the picture
/// formats for export). `live` is LearnRender's importer and exporter;
/// `inMemory` keeps files in a dictionary for tests.
public struct SketchFileClient: Sendable {
    public var read: @Sendable (_ path: String) throws(SketchIOError) -> SketchDocument
    public var write: @Sendable (_ document: SketchDocument, _ path: String) throws(SketchIOError) -> Void

    public init(read: @escaping @Sendable (String) throws(SketchIOError) -> SketchDocument,
                write: @escaping @Sendable (SketchDocument, String) throws(SketchIOError) -> Void) {
        self.read = read
        self.write = write
    }

    public static let live = SketchFileClient(
        read: { path throws(SketchIOError) in try SketchImport.read(path) },
        write: { doc, path throws(SketchIOError) in try SketchExport.write(doc, to: path) })

    public static func inMemory(_ files: [String: SketchDocument] = [:]) -> SketchFileClient {
        let box = LockedValue(files)
        return SketchFileClient(
            read: { path throws(SketchIOError) in
                guard let doc = box.value[path] else { throw SketchIOError.unreadable(path: path, reason: "no such file") }
                return doc
            },
            write: { doc, path in box.update { $0[path] = doc } })
    }
}
