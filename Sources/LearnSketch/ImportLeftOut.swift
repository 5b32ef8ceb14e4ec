/// What an imported file held that the sketch cannot: counted, so the
/// person is told ("2 text boxes and 1 image were not imported") rather than
/// finding out later. A Teamsketch file leaves nothing out. (Fills, dash
/// patterns, pressure widths and highlighters come across as styles of the
/// stroke, see `Stroke`.)
public struct ImportLeftOut: Hashable, Sendable {
    /// Pages after the first (a sketch has one page).
    public var pages = 0
    /// Text boxes.
    public var texts = 0
    /// Pictures.
    public var images = 0
    /// LaTeX formulas (`<teximage>`).
    public var texFormulas = 0
    /// Strokes of a colour the importer does not know (imported in black).
    public var unknownColors = 0
    /// Pressure strokes with points of no, negative or unreadable pressure
    /// (old Xournal++ versions wrote such): those points were left out and
    /// the stroke split where they were, as Xournal++ itself mends them.
    public var mendedPressure = 0

    public init(pages: Int = 0, texts: Int = 0, images: Int = 0, texFormulas: Int = 0, unknownColors: Int = 0,
                mendedPressure: Int = 0) {
        self.pages = pages; self.texts = texts; self.images = images; self.texFormulas = texFormulas
        self.unknownColors = unknownColors; self.mendedPressure = mendedPressure
    }

    public static let nothing = ImportLeftOut()

    public var total: Int { pages + texts + images + texFormulas + unknownColors + mendedPressure }
    public var isEmpty: Bool { total == 0 }
}
