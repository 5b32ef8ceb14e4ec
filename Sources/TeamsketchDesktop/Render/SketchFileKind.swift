/// The file types a sketch can be written as, named by their extension.
enum SketchFileKind: String, CaseIterable, Sendable {
    case png, pdf, svg, xopp, teamsketch

    /// From a path's extension, case-insensitively.
    init?(path: String) {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
        self.init(rawValue: name[name.index(after: dot)...].lowercased())
    }

    /// Formats that keep the strokes, so they can be read back.
    var isSketchData: Bool { self == .xopp || self == .teamsketch }

    static var exportable: [String] { allCases.map(\.rawValue) }
    static var importable: [String] { allCases.filter(\.isSketchData).map(\.rawValue) }
}
