import LearnModel
/// Everything that can go wrong reading or writing a sketch file, with a
/// message a teacher can act on (the CLI prints `description` as is).
public enum SketchIOError: Error, Equatable, CustomStringConvertible {
    case unreadable(path: String, reason: String)
    /// Larger than any sketch can be; not read, so it costs no memory.
    case tooLarge(path: String, limit: Int)
    /// The person stopped the reading.
    case cancelled(path: String)
    case unwritable(path: String, reason: String)
    case unknownExtension(path: String, allowed: [String])
    case notASketch(path: String, reason: String)
    case cairo(String)
    case invalidWidth(Int)
    /// A sketch name was given, but this device has no sketch store yet.
    case noStore(name: String, storePath: String)
    case storeUnreadable(storePath: String, reason: String)
    case noStoredSketch(name: String, storePath: String)

    public var description: String {
        switch self {
        case .unreadable(let path, let reason):
            "Cannot read \(path): \(reason)."
        case .cancelled(let path):
            "Opening \(path) was stopped."
        case .tooLarge(let path, let limit):
            "Cannot open \(path): the file is too large (more than \(limit >> 20) MB) to be a sketch."
        case .unwritable(let path, let reason):
            "Cannot write \(path): \(reason)."
        case .unknownExtension(let path, let allowed):
            "Unknown file type for \(path): use one of " + allowed.map { "." + $0 }.joined(separator: ", ") + "."
        case .notASketch(let path, let reason):
            "Cannot open \(path) as a sketch: \(reason)."
        case .cairo(let status):
            "Drawing failed (Cairo: \(status))."
        case .invalidWidth(let width):
            "Invalid image width \(width): use 1 to \(SketchExport.maxPixelWidth) pixels."
        case .noStore(let name, let storePath):
            "There is no file named \(name), and no sketch store at \(storePath) to find a sketch of that name in."
        case .storeUnreadable(let storePath, let reason):
            "Cannot read the sketch store at \(storePath): \(reason)"
        case .noStoredSketch(let name, let storePath):
            "There is no file named \(name), and no sketch of that name in the sketch store at \(storePath)."
        }
    }
}
