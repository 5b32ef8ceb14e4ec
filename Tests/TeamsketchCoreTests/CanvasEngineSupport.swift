import Foundation
import LearnModel
import LearnRender
import TeamsketchCore

/// The engine with what the view does around it: effects carried out on real
/// tiles (pixels, no window), timers fired by hand, everything recorded.
struct CanvasRig {
    var engine: CanvasEngine
    let tiles = InkTileCache()
    /// Every effect so far, in order.
    var log: [CanvasEffect] = []
    var pendingSettle: Int?
    var idleAsked = false

    /// The UI tests' canvas: a 1200 × 660 widget, one device pixel per unit.
    init(document: SketchDocument = SketchDocument(meta: SketchMeta(name: "Test")), shared: Bool = false,
         permissions: SketchPermissions = .solo(.defaults),
         width: Double = 1200, height: Double = 660, deviceScale: Double = 1) {
        engine = CanvasEngine(document: document, author: "Mia", isShared: shared, permissions: permissions)
        send(.resize(width: width, height: height, deviceScale: deviceScale))
        frame()
    }

    /// Sends an event and carries out its effects; returns them.
    @discardableResult
    mutating func send(_ event: CanvasEvent) -> [CanvasEffect] {
        engine.handle(event)
        let effects = engine.takeEffects()
        log += effects
        for e in effects where !engine.carryOut(e, on: tiles) {
            switch e {
            case .scheduleSettle(let g): pendingSettle = g
            case .scheduleIdle: idleAsked = true
            default: break
            }
        }
        return effects
    }

    @discardableResult
    mutating func frame() -> [CanvasEffect] { send(.frame) }

    /// The settle timer fires (input rested).
    @discardableResult
    mutating func settle() -> [CanvasEffect] {
        guard let g = pendingSettle else { return [] }
        pendingSettle = nil
        return send(.settle(generation: g))
    }

    /// Idle turns until no more are asked for.
    mutating func idleUntilDone() {
        while idleAsked {
            idleAsked = false
            send(.idle)
        }
    }

    /// A drag as xdotool makes it: press, moves, release (widget units).
    @discardableResult
    mutating func drag(_ path: [Point], eraserTip: Bool = false) -> [CanvasEffect] {
        var out = send(.press(path[0], eraserTip: eraserTip))
        for p in path.dropFirst() { out += send(.motion([p])) }
        out += send(.release(path[path.count - 1]))
        return out
    }

    /// The colour shown at a widget point, read from the tile the view
    /// would paint there (the topmost one holding it).
    func pixel(atWidget p: Point) -> (r: UInt8, g: UInt8, b: UInt8)? {
        let c = engine.viewport.toCanvas(p)
        for key in engine.tilesToPaint.reversed() {
            let x = Int((c.x * key.scale).rounded(.down)) - key.pixelX
            let y = Int((c.y * key.scale).rounded(.down)) - key.pixelY
            guard (0..<TileKey.size).contains(x), (0..<TileKey.size).contains(y), let image = tiles.image(key) else {
                continue
            }
            let px = image.pixel(x: x, y: y)
            return (px.r, px.g, px.b)
        }
        return nil
    }

    func isInk(_ p: Point, _ color: PenColor, tolerance: Int = 40) -> Bool {
        guard let px = pixel(atWidget: p) else { return false }
        let c = color.rgba
        return abs(Int(px.r) - Int(c.r * 255)) <= tolerance && abs(Int(px.g) - Int(c.g * 255)) <= tolerance
            && abs(Int(px.b) - Int(c.b * 255)) <= tolerance
    }

    /// Ink within `radius` widget pixels of `p`, as the UI tests look for it.
    func hasInk(near p: Point, _ color: PenColor, radius: Double = 6) -> Bool {
        for dy in stride(from: -radius, through: radius, by: 1) {
            for dx in stride(from: -radius, through: radius, by: 1) where dx * dx + dy * dy <= radius * radius {
                if isInk(Point(p.x + dx, p.y + dy), color) { return true }
            }
        }
        return false
    }

    /// Ink pixels along a vertical line through `x`, between y0 and y1 (widget units).
    func thickness(atX x: Double, from y0: Double, to y1: Double, _ color: PenColor) -> Int {
        stride(from: y0, to: y1, by: 1).filter { isInk(Point(x, $0), color) }.count
    }
}

extension Array where Element == CanvasEffect {
    var stored: [SketchOp] { compactMap { if case .store(let op) = $0 { op } else { nil } } }
    var intents: [SessionIntent] { compactMap { if case .session(let i) = $0 { i } else { nil } } }
    var rendered: [TileKey] { flatMap { e -> [TileKey] in if case .render(let k, _) = e { k } else { [] } } }
    var dropped: [TileKey] { flatMap { e -> [TileKey] in if case .drop(let k) = e { k } else { [] } } }
    var inkRuns: [InkRun] { compactMap { if case .ink(let run, _) = $0 { run } else { nil } } }
    var redrawn: [Rect] { compactMap { if case .redraw(let r, _) = $0 { r } else { nil } } }
}

/// The curve the UI test draws: a wave across the middle of the sheet.
func curve(across rig: CanvasRig) -> [Point] {
    let v = rig.engine.viewport
    let o = v.origin, w = v.canvasWidth * v.scale, h = v.canvasHeight * v.scale
    return (0...40).map { i in
        let t = Double(i) / 40
        return Point(o.x + w * (0.15 + 0.7 * t), o.y + h * (0.5 + 0.25 * sin(t * 2 * .pi)))
    }
}

/// Another member's stroke as the session reports it.
func liveStroke(id: UUID = UUID(), color: PenColor = .red, start: Point, segments: [CubicSegment] = []) -> LiveStroke {
    let begin = StrokeBegin(stamp: OpStamp(sender: 2, seq: 1), strokeID: id, author: "Ben", color: RGBA8(color.rgba),
                            width: WireLength(PenWidth.broad.units), start: WirePoint(start),
                            time: WireTime(milliseconds: 0))
    return LiveStroke(begin: begin, segments: segments.map(WireSegment.init))
}

/// Straight segments through `points` (canvas units), exact on the wire grid.
func lines(_ points: [Point]) -> [CubicSegment] {
    zip(points, points.dropFirst()).map { CubicSegment.line(from: $0, to: $1) }
}
