import Foundation
import LearnModel

/// A colour per pupil for the replay's "colour by pupil": strong pens that
/// tell apart on white, given in name order so the same pupils get the same
/// colours every time the teacher looks.
public enum AuthorColors {
    static let palette: [PenColor] = [.darkBlue, .red, .darkGreen, .orange, .purple, .brown, .pink, .lightBlue,
                                      .lightGreen, .black]

    public static func assign(_ authors: some Collection<String>) -> [String: RGBA] {
        let names = Set(authors).sorted { $0.localizedStandardCompare($1) == .orderedAscending }
        var out: [String: RGBA] = [:]
        for (i, name) in names.enumerated() { out[name] = palette[i % palette.count].rgba }
        return out
    }

    /// The strokes with each pupil's colour instead of their pens'.
    public static func recolor(_ strokes: [Stroke], with colors: [String: RGBA]) -> [Stroke] {
        strokes.map { stroke in
            var s = stroke
            if let c = colors[s.author] { s.color = c }
            return s
        }
    }
}
