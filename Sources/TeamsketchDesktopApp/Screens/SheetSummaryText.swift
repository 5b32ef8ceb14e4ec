import TeamsketchCore

/// The sheet's description for screen readers: "12 lines by Mia and Ole."
enum SheetSummaryText {
    static func sentence(_ s: SheetSummary) -> String {
        guard s.lines > 0 else { return `_`("Nothing is drawn yet.") }
        var names = s.authors
        if s.otherAuthors > 0 {
            names.append(String(format: _n("%d other", "%d others", s.otherAuthors), s.otherAuthors))
        }
        let lines = String(format: _n("%d line", "%d lines", s.lines), s.lines)
        guard let last = names.popLast() else { return lines + "." }
        let who = names.isEmpty ? last : String(format: `_`("%@ and %@"), names.joined(separator: ", "), last)
        return String(format: `_`("%@ by %@."), lines, who)
    }
}
