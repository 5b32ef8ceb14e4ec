import LearnModel
/// The file types a sketch can be written as, named by their extension.
public enum SketchFileKind: String, CaseIterable, Sendable {
    case png, pdf, svg, xopp, teamsketch

    /// From a path's extension, case-insensitively.
    public init?(path: String) {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
        self.init(rawValue: name[name.index(after: dot)...].lowercased())
    }

    /// Formats that keep the strokes, so they can be read back.
    public var isSketchData: Bool { self == .xopp || self == .teamsketch }

    public static var exportable: [String] { allCases.map(\.rawValue) }
    public static var importable: [String] { allCases.filter(\.isSketchData).map(\.rawValue) }
}
