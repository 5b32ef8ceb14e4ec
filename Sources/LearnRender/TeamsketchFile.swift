import Foundation
import LearnModel

/// Our own `.teamsketch` files on disk, via LearnModel's format.
public enum TeamsketchFile {
    public static func read(_ path: String) throws(SketchIOError) -> SketchDocument {
        try decode(FileBytes.read(path), path: path)
    }

    public static func decode(_ bytes: [UInt8], path: String) throws(SketchIOError) -> SketchDocument {
        do {
            return try SketchFileFormat.decode(Data(bytes))
        } catch {
            throw .notASketch(path: path, reason: reason(error))
        }
    }

    public static func data(_ doc: SketchDocument) throws(SketchIOError) -> [UInt8] {
        do {
            return [UInt8](try SketchFileFormat.encode(doc))
        } catch {
            throw .unwritable(path: doc.meta.name, reason: reason(error))
        }
    }

    private static func reason(_ error: SketchFileError) -> String {
        switch error {
        case .notASketch: "it is not a Teamsketch file"
        case .unsupportedVersion(let v): "it was saved in format version \(v), which this version cannot read"
        case .corrupt(let why): "the file is damaged (\(why))"
        case .unencodable(let why): why
        case .outOfLimits(let why): why.errorDescription ?? "a value is out of range"
        }
    }
}
