import LearnModel

/// One square of the canvas's pixel cache: `size` × `size` device pixels of
/// the canvas drawn at `scale` device pixels per canvas unit. Keys of one
/// scale form a grid starting at canvas (0, 0), so a tile's place never
/// depends on scrolling and a tile stays valid while the view pans.
public struct TileKey: Hashable, Sendable, CustomStringConvertible {
    /// Small enough that the pixels around the viewport are all a zoomed
    /// cache holds, large enough that a stroke crosses few tiles.
    public static let size = 256

    public var scale: Double
    public var column: Int
    public var row: Int

    public init(scale: Double, column: Int, row: Int) {
        self.scale = scale
        self.column = column
        self.row = row
    }

    /// Device pixel of the tile's top-left corner, with canvas (0, 0) at pixel (0, 0).
    public var pixelX: Int { column * Self.size }
    public var pixelY: Int { row * Self.size }

    /// The part of the canvas the tile shows, in canvas units.
    public var canvasRect: Rect {
        let s = Double(Self.size)
        return Rect(x: Double(pixelX) / scale, y: Double(pixelY) / scale, width: s / scale, height: s / scale)
    }

    public var description: String { "tile(\(scale), \(column), \(row))" }

    /// Every tile at `scale` that overlaps `rect` (canvas units), limited to
    /// the canvas `width` × `height`, row by row.
    public static func covering(_ rect: Rect, scale: Double, canvasWidth: Double, canvasHeight: Double) -> [TileKey] {
        guard !rect.isNull, rect.width > 0, rect.height > 0, scale > 0 else { return [] }
        let s = Double(size)
        let lastColumn = Int((canvasWidth * scale / s).rounded(.up)) - 1
        let lastRow = Int((canvasHeight * scale / s).rounded(.up)) - 1
        let c0 = max(0, Int((rect.x * scale / s).rounded(.down)))
        let r0 = max(0, Int((rect.y * scale / s).rounded(.down)))
        let c1 = min(lastColumn, Int((rect.maxX * scale / s).rounded(.up)) - 1)
        let r1 = min(lastRow, Int((rect.maxY * scale / s).rounded(.up)) - 1)
        guard c0 <= c1, r0 <= r1 else { return [] }
        var keys: [TileKey] = []
        keys.reserveCapacity((c1 - c0 + 1) * (r1 - r0 + 1))
        for r in r0...r1 {
            for c in c0...c1 { keys.append(TileKey(scale: scale, column: c, row: r)) }
        }
        return keys
    }
}
