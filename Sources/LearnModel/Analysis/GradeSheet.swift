import Foundation

/// Grades and the numbers behind them as a spreadsheet a teacher opens in
/// LibreOffice: one row per pupil of each sketch, with the team's grade and
/// comment. Built from the same pure analysis the teacher's window shows,
/// so the sheet and the screen never disagree.
public struct GradeSheet: Sendable {
    public struct Row: Hashable, Sendable {
        public var sketchName: String
        public var sketchDate: Date
        public var pupil: String
        public var strokes: Int
        /// Percent of the sketch's ink, 0–100, rounded.
        public var inkPercent: Int
        public var activeMinutes: Double
        public var erasedOthers: Int
        public var grade: Int?
        public var comment: String

        public init(sketchName: String, sketchDate: Date, pupil: String, strokes: Int, inkPercent: Int,
                    activeMinutes: Double, erasedOthers: Int, grade: Int?, comment: String) {
            self.sketchName = sketchName; self.sketchDate = sketchDate; self.pupil = pupil; self.strokes = strokes
            self.inkPercent = inkPercent; self.activeMinutes = activeMinutes; self.erasedOthers = erasedOthers
            self.grade = grade; self.comment = comment
        }
    }

    public private(set) var rows: [Row] = []

    public init() {}

    /// Adds a sketch: one row per pupil who drew or erased in it (a sketch
    /// nobody drew in gets one row without a pupil, so its grade is kept).
    public mutating func add(_ document: SketchDocument, grade: GradeRecord?) {
        let stats = ContributionStats(document: document)
        let grade = grade?.deleted == true ? nil : grade
        guard !stats.authors.isEmpty else {
            rows.append(Row(sketchName: document.meta.name, sketchDate: document.meta.createdAt, pupil: "", strokes: 0,
                            inkPercent: 0, activeMinutes: 0, erasedOthers: 0, grade: grade?.grade,
                            comment: grade?.comment ?? ""))
            return
        }
        for author in stats.authors {
            rows.append(Row(sketchName: document.meta.name, sketchDate: document.meta.createdAt, pupil: author.author,
                            strokes: author.strokes, inkPercent: Int((stats.share(of: author.author) * 100).rounded()),
                            activeMinutes: (author.activeSeconds / 60 * 10).rounded() / 10,
                            erasedOthers: author.erasedOthers, grade: grade?.grade, comment: grade?.comment ?? ""))
        }
    }

    public static let header = "sketch,date,pupil,strokes,ink_percent,active_minutes,erased_others,grade,comment"

    /// RFC 4180 text with CRLF line ends. A cell a spreadsheet would run as
    /// a formula (a pupil named "=HYPERLINK(...)") is prefixed with an
    /// apostrophe, so opening the file runs nothing.
    public func csv() -> String {
        let day = DateFormatter()
        day.locale = Locale(identifier: "en_US_POSIX")
        day.timeZone = .current
        day.dateFormat = "yyyy-MM-dd HH:mm"
        var out = Self.header + "\r\n"
        for r in rows {
            let cells = [Self.text(r.sketchName), day.string(from: r.sketchDate), Self.text(r.pupil), String(r.strokes),
                         String(r.inkPercent), String(format: "%.1f", r.activeMinutes), String(r.erasedOthers),
                         r.grade.map(String.init) ?? "", Self.text(r.comment)]
            out += cells.joined(separator: ",") + "\r\n"
        }
        return out
    }

    static func text(_ value: String) -> String {
        let guarded = value.first.map { "=+-@\t\r".contains($0) } == true ? "'" + value : value
        return CSVRecords.escape(guarded)
    }
}

/// The id under which a teacher's grade of a whole team's work is kept:
/// the same for every later change of mind, so the newest replaces the
/// older on every device and on the server.
public enum GradeIdentity {
    public static func team(_ target: GradeRecord.Target, _ targetID: UUID) -> UUID {
        SketchOpIdentity.name(targetID, "grade:\(target.rawValue):team")
    }
}
