import LearnModel

/// One square of the canvas's pixel cache: `size` × `size` device pixels of
/// the canvas drawn at `scale` device pixels per canvas unit. Keys of one
/// scale and grid origin form a grid fixed to the canvas, so a tile's place
/// never depends on scrolling and a tile stays valid while the view pans.
/// The grid origin lets a level start its grid where the view was when it
/// was made, so the visible area needs as few tiles as possible.
public struct TileKey: Hashable, Sendable, CustomStringConvertible {
    /// Small enough that the pixels around the viewport are all a zoomed
    /// cache holds, large enough that a stroke crosses few tiles.
    public static let size = 256

    public var scale: Double
    public var column: Int
    public var row: Int
    /// Device pixel (canvas (0, 0) at pixel (0, 0)) where column 0, row 0 starts.
    public var originX: Int
    public var originY: Int

    public init(scale: Double, column: Int, row: Int, originX: Int = 0, originY: Int = 0) {
        self.scale = scale
        self.column = column
        self.row = row
        self.originX = originX
        self.originY = originY
    }

    /// Device pixel of the tile's top-left corner, with canvas (0, 0) at pixel (0, 0).
    public var pixelX: Int { originX + column * Self.size }
    public var pixelY: Int { originY + row * Self.size }

    /// The part of the canvas the tile shows, in canvas units.
    public var canvasRect: Rect {
        let s = Double(Self.size)
        return Rect(x: Double(pixelX) / scale, y: Double(pixelY) / scale, width: s / scale, height: s / scale)
    }

    public var description: String { "tile(\(scale), \(column), \(row) from \(originX), \(originY))" }

    /// Every tile at `scale` (grid starting at device pixel `originX`,
    /// `originY`) that overlaps `rect` (canvas units), limited to the canvas
    /// `width` × `height`, row by row.
    public static func covering(_ rect: Rect, scale: Double, originX: Int = 0, originY: Int = 0,
                                canvasWidth: Double, canvasHeight: Double) -> [TileKey] {
        guard !rect.isNull, rect.width > 0, rect.height > 0, scale > 0 else { return [] }
        let s = Double(size), ox = Double(originX), oy = Double(originY)
        func cell(_ v: Double, _ o: Double, _ rounding: FloatingPointRoundingRule) -> Int {
            Int(((v - o) / s).rounded(rounding))
        }
        let c0 = max(cell(0, ox, .down), cell(rect.x * scale, ox, .down))
        let r0 = max(cell(0, oy, .down), cell(rect.y * scale, oy, .down))
        let c1 = min(cell(canvasWidth * scale, ox, .up), cell(rect.maxX * scale, ox, .up)) - 1
        let r1 = min(cell(canvasHeight * scale, oy, .up), cell(rect.maxY * scale, oy, .up)) - 1
        guard c0 <= c1, r0 <= r1 else { return [] }
        var keys: [TileKey] = []
        keys.reserveCapacity((c1 - c0 + 1) * (r1 - r0 + 1))
        for r in r0...r1 {
            for c in c0...c1 { keys.append(TileKey(scale: scale, column: c, row: r, originX: originX, originY: originY)) }
        }
        return keys
    }
}
