import LearnModel
import LearnRender

/// Resolves the INPUT of `export`: a sketch file, or the name of a sketch in
/// the local store.
enum SketchSource {
    static func load(_ input: String) throws(SketchIOError) -> SketchDocument {
        if FileBytes.exists(input) || looksLikePath(input) {
            return try SketchImport.read(input)
        }
        return try StoredSketch.load(named: input)
    }

    /// A name with a folder or a sketch-file extension is meant as a file, so
    /// a typo in it reports "no such file" rather than "no such sketch".
    private static func looksLikePath(_ input: String) -> Bool {
        input.contains("/") || SketchFileKind(path: input) != nil
    }
}
