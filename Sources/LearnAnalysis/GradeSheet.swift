import Foundation
import LearnRecords
import LearnSketch

/// Grades and the numbers behind them as a spreadsheet a teacher opens in
/// LibreOffice: one row per pupil of each sketch, with the team's grade and
/// comment and the pupil's own. Built from the same pure analysis the teacher's window shows,
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
        /// The team's grade and comment.
        public var grade: Int?
        public var comment: String
        /// The pupil's own grade and comment.
        public var pupilGrade: Int?
        public var pupilComment: String

        public init(sketchName: String, sketchDate: Date, pupil: String, strokes: Int, inkPercent: Int,
                    activeMinutes: Double, erasedOthers: Int, grade: Int?, comment: String,
                    pupilGrade: Int? = nil, pupilComment: String = "") {
            self.sketchName = sketchName; self.sketchDate = sketchDate; self.pupil = pupil; self.strokes = strokes
            self.inkPercent = inkPercent; self.activeMinutes = activeMinutes; self.erasedOthers = erasedOthers
            self.grade = grade; self.comment = comment; self.pupilGrade = pupilGrade; self.pupilComment = pupilComment
        }
    }

    public private(set) var rows: [Row] = []

    public init() {}

    /// Adds a sketch: one row per pupil who drew or erased in it (a sketch
    /// nobody drew in gets one row without a pupil, so its grade is kept).
    /// `pupilGrades` holds each pupil's own grade by the name they drew under.
    public mutating func add(_ document: SketchDocument, grade: GradeRecord?, pupilGrades: [String: GradeRecord] = [:]) {
        let stats = ContributionStats(document: document)
        let grade = grade?.deleted == true ? nil : grade
        guard !stats.authors.isEmpty else {
            rows.append(Row(sketchName: document.meta.name, sketchDate: document.meta.createdAt, pupil: "", strokes: 0,
                            inkPercent: 0, activeMinutes: 0, erasedOthers: 0, grade: grade?.grade,
                            comment: grade?.comment ?? ""))
            return
        }
        for author in stats.authors {
            let own = pupilGrades[author.author].flatMap { $0.deleted ? nil : $0 }
            rows.append(Row(sketchName: document.meta.name, sketchDate: document.meta.createdAt, pupil: author.author,
                            strokes: author.strokes, inkPercent: Int((stats.share(of: author.author) * 100).rounded()),
                            activeMinutes: (author.activeSeconds / 60 * 10).rounded() / 10,
                            erasedOthers: author.erasedOthers, grade: grade?.grade, comment: grade?.comment ?? "",
                            pupilGrade: own?.grade, pupilComment: own?.comment ?? ""))
        }
    }

    /// The columns, as an English file names them; a translated sheet
    /// gives its own titles in this order.
    public static let columns = ["sketch", "date", "pupil", "strokes", "ink_percent", "active_minutes", "erased_others",
                                 "team_grade", "team_comment", "pupil_grade", "pupil_comment"]
    public static let header = columns.joined(separator: ",")

    /// RFC 4180 text with CRLF line ends in `dialect`, under `titles` (the
    /// columns' own names unless one title is given for each); text cells
    /// through `SpreadsheetText`, so opening the file runs nothing.
    public func csv(_ dialect: SpreadsheetDialect = .english, titles: [String] = columns) -> String {
        var out = dialect.row((titles.count == Self.columns.count ? titles : Self.columns).map(dialect.text))
        for r in rows {
            out += dialect.row([dialect.text(r.sketchName), SpreadsheetText.minute(r.sketchDate), dialect.text(r.pupil),
                                String(r.strokes), String(r.inkPercent), dialect.tenths(r.activeMinutes),
                                String(r.erasedOthers), r.grade.map(String.init) ?? "", dialect.text(r.comment),
                                r.pupilGrade.map(String.init) ?? "", dialect.text(r.pupilComment)])
        }
        return out
    }
}
