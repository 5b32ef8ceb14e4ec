/// How the class wall arranges its groups: the number of columns that makes
/// each group's sheet largest in the space there is. Sheets keep their
/// shape (letterboxed in their cell), so a wide projector and a laptop
/// screen choose differently for the same number of groups.
public struct WallLayout: Hashable, Sendable {
    public var columns: Int
    public var rows: Int

    /// Room every cell needs besides its sheet: the group's name above it
    /// and the gaps around it, in pixels.
    public static let cellChrome = (width: 12.0, height: 44.0)

    public init(columns: Int, rows: Int) {
        self.columns = columns
        self.rows = rows
    }

    /// The layout whose cells show `count` sheets of `sheetAspect`
    /// (width / height) biggest inside `width` × `height` pixels. Ties go to
    /// fewer rows, then fewer empty cells. Nothing to show is one empty cell.
    public static func best(count: Int, width: Double, height: Double, sheetAspect: Double) -> WallLayout {
        let n = max(1, count)
        let aspect = sheetAspect.isFinite && sheetAspect > 0 ? sheetAspect : 4.0 / 3.0
        var best = WallLayout(columns: n, rows: 1)
        var bestKey = (area: -1.0, rows: Int.max, empty: Int.max)
        for columns in 1...n {
            let rows = (n + columns - 1) / columns
            // The sheet fits the cell's width or its height, whichever binds.
            let sheetH = WallLayout(columns: columns, rows: rows).sheetHeight(width: width, height: height, sheetAspect: aspect)
            let key = (area: sheetH * sheetH * aspect, rows: rows, empty: rows * columns - n)
            // Within half a pixel the sheets are the same: fewer rows, then
            // fewer empty cells.
            let better = key.area > bestKey.area + 0.5
                || (abs(key.area - bestKey.area) <= 0.5 && (key.rows, key.empty) < (bestKey.rows, bestKey.empty))
            if better {
                best = WallLayout(columns: columns, rows: rows)
                bestKey = key
            }
        }
        return best
    }

    /// How tall each sheet is in this layout, in pixels.
    public func sheetHeight(width: Double, height: Double, sheetAspect: Double) -> Double {
        let aspect = sheetAspect.isFinite && sheetAspect > 0 ? sheetAspect : 4.0 / 3.0
        let cellW = max(0, width / Double(max(1, columns)) - Self.cellChrome.width)
        let cellH = max(0, height / Double(max(1, rows)) - Self.cellChrome.height)
        return min(cellW / aspect, cellH)
    }

    /// Row and column of the `index`th group, filled row by row.
    public func place(_ index: Int) -> (row: Int, column: Int) {
        (index / max(1, columns), index % max(1, columns))
    }
}
