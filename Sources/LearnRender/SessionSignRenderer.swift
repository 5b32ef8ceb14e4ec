import CCairo
import Foundation
import LearnModel

/// Draws a `SessionSign` with Cairo: a rounded band of the sign's colour
/// holding two white tiles, each with its picture in a few bold shapes and
/// a dark outline, like a picture book. The band keeps its proportions at
/// every size (`aspect`), so the lobby's big sign and a join card's small
/// one look alike. Pure drawing into any context: the GTK screens, a PNG.
public enum SessionSignRenderer {
    /// Width ÷ height of a sign: two square tiles with a gap of an eighth
    /// of a tile around and between them.
    public static let aspect = (2 + 3 * gapPerTile) / (1 + 2 * gapPerTile)
    static let gapPerTile = 0.125

    /// A sign fitted into the rectangle (centred, as large as fits).
    public static func draw(_ sign: SessionSign, in cr: OpaquePointer, x: Double, y: Double, width: Double, height: Double) {
        let h = min(height, width / aspect), w = h * aspect
        let x0 = x + (width - w) / 2, y0 = y + (height - h) / 2
        let tile = h / (1 + 2 * gapPerTile), gap = tile * gapPerTile
        cairo_save(cr)
        roundedRect(cr, x0, y0, w, h, radius: gap * 1.6)
        setSource(cr, sign.colour.rgba)
        cairo_fill(cr)
        for (i, picture) in [sign.first, sign.second].enumerated() {
            let tx = x0 + gap + Double(i) * (tile + gap), ty = y0 + gap
            roundedRect(cr, tx, ty, tile, tile, radius: gap)
            cairo_set_source_rgb(cr, 1, 1, 1)
            cairo_fill(cr)
            drawPicture(picture, in: cr, x: tx, y: ty, size: tile)
        }
        cairo_restore(cr)
    }

    /// The mark of a card that copies another's session id: the sign behind
    /// grey stripes and a warning triangle on top, so a child sees at once
    /// that this one is not like the sign at the front.
    public static func drawCopyWarning(in cr: OpaquePointer, x: Double, y: Double, width: Double, height: Double) {
        cairo_save(cr)
        // The stripes keep to the band's rounded outline; their clip ends
        // with their own save/restore, so the caller's clip stays.
        cairo_save(cr)
        let h = min(height, width / aspect), w = h * aspect
        roundedRect(cr, x + (width - w) / 2, y + (height - h) / 2, w, h, radius: h / (1 + 2 * gapPerTile) * gapPerTile * 1.6)
        cairo_clip(cr)
        cairo_set_source_rgba(cr, 0.2, 0.2, 0.2, 0.55)
        cairo_set_line_width(cr, height * 0.09)
        var offset = -height
        while offset < width {
            cairo_move_to(cr, x + offset, y + height)
            cairo_line_to(cr, x + offset + height, y)
            offset += height * 0.28
        }
        cairo_stroke(cr)
        cairo_restore(cr)
        let side = min(width, height) * 0.9
        let cx = x + width / 2, top = y + (height - side * 0.87) / 2
        cairo_move_to(cr, cx, top)
        cairo_line_to(cr, cx + side / 2, top + side * 0.87)
        cairo_line_to(cr, cx - side / 2, top + side * 0.87)
        cairo_close_path(cr)
        cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
        cairo_set_source_rgb(cr, 0.1, 0.1, 0.1)
        cairo_set_line_width(cr, side * 0.08)
        cairo_stroke_preserve(cr)
        cairo_set_source_rgb(cr, 1.0, 0.84, 0.0)
        cairo_fill(cr)
        cairo_set_source_rgb(cr, 0.1, 0.1, 0.1)
        cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND)
        cairo_set_line_width(cr, side * 0.1)
        cairo_move_to(cr, cx, top + side * 0.3)
        cairo_line_to(cr, cx, top + side * 0.58)
        cairo_stroke(cr)
        cairo_arc(cr, cx, top + side * 0.73, side * 0.06, 0, 2 * .pi)
        cairo_fill(cr)
        cairo_restore(cr)
    }

    /// One picture in a square of `size` at (x, y).
    public static func drawPicture(_ picture: SessionSign.Picture, in cr: OpaquePointer, x: Double, y: Double, size: Double) {
        cairo_save(cr)
        cairo_translate(cr, x, y)
        cairo_scale(cr, size, size)
        cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND)
        cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
        let pen = PicturePen(cr: cr)
        switch picture {
        case .sun: pen.sun()
        case .moon: pen.moon()
        case .star: pen.star()
        case .heart: pen.heart()
        case .tree: pen.tree()
        case .flower: pen.flower()
        case .fish: pen.fish()
        case .house: pen.house()
        case .boat: pen.boat()
        case .apple: pen.apple()
        case .cat: pen.cat()
        case .mushroom: pen.mushroom()
        case .umbrella: pen.umbrella()
        case .balloon: pen.balloon()
        case .car: pen.car()
        case .snail: pen.snail()
        }
        cairo_restore(cr)
    }

    static func roundedRect(_ cr: OpaquePointer, _ x: Double, _ y: Double, _ w: Double, _ h: Double, radius r: Double) {
        cairo_new_sub_path(cr)
        cairo_arc(cr, x + w - r, y + r, r, -.pi / 2, 0)
        cairo_arc(cr, x + w - r, y + h - r, r, 0, .pi / 2)
        cairo_arc(cr, x + r, y + h - r, r, .pi / 2, .pi)
        cairo_arc(cr, x + r, y + r, r, .pi, 3 * .pi / 2)
        cairo_close_path(cr)
    }

    static func setSource(_ cr: OpaquePointer, _ c: RGBA) {
        cairo_set_source_rgba(cr, c.r, c.g, c.b, c.a)
    }
}

/// The pictures, drawn in a unit square. Each shape is outlined first with
/// a double-width line and filled afterwards, so shapes that overlap (a
/// tree's crown) share one outline around their union.
private struct PicturePen {
    let cr: OpaquePointer
    static let ink = RGBA(hex: 0x2B2B2B)
    static let line = 0.045

    /// Outlines then fills each (path, colour), in order.
    func shapes(_ parts: [(path: () -> Void, colour: RGBA)]) {
        SessionSignRenderer.setSource(cr, Self.ink)
        cairo_set_line_width(cr, Self.line * 2)
        for p in parts {
            p.path()
            cairo_stroke(cr)
        }
        for p in parts {
            p.path()
            SessionSignRenderer.setSource(cr, p.colour)
            cairo_fill(cr)
        }
    }

    func circle(_ x: Double, _ y: Double, _ r: Double) -> () -> Void {
        { cairo_new_sub_path(cr); cairo_arc(cr, x, y, r, 0, 2 * .pi) }
    }

    func polygon(_ points: [(Double, Double)]) -> () -> Void {
        {
            cairo_move_to(cr, points[0].0, points[0].1)
            for p in points.dropFirst() { cairo_line_to(cr, p.0, p.1) }
            cairo_close_path(cr)
        }
    }

    func ellipse(_ x: Double, _ y: Double, _ rx: Double, _ ry: Double) -> () -> Void {
        {
            cairo_save(cr)
            cairo_translate(cr, x, y)
            cairo_scale(cr, rx, ry)
            cairo_new_sub_path(cr)
            cairo_arc(cr, 0, 0, 1, 0, 2 * .pi)
            cairo_restore(cr)
        }
    }

    func rect(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double, radius: Double = 0.02) -> () -> Void {
        { SessionSignRenderer.roundedRect(cr, x0, y0, x1 - x0, y1 - y0, radius: radius) }
    }

    /// Lines in ink (rays, whiskers, a mast).
    func lines(_ segments: [((Double, Double), (Double, Double))], width: Double = line, colour: RGBA = ink) {
        SessionSignRenderer.setSource(cr, colour)
        cairo_set_line_width(cr, width)
        for (a, b) in segments {
            cairo_move_to(cr, a.0, a.1)
            cairo_line_to(cr, b.0, b.1)
        }
        cairo_stroke(cr)
    }

    func dot(_ x: Double, _ y: Double, _ r: Double, _ colour: RGBA = ink) {
        circle(x, y, r)()
        SessionSignRenderer.setSource(cr, colour)
        cairo_fill(cr)
    }

    // MARK: the pictures

    func sun() {
        let rays = (0..<8).map { i -> ((Double, Double), (Double, Double)) in
            let a = Double(i) * .pi / 4
            return ((0.5 + 0.3 * cos(a), 0.5 + 0.3 * sin(a)), (0.5 + 0.43 * cos(a), 0.5 + 0.43 * sin(a)))
        }
        lines(rays, width: 0.1)
        lines(rays, width: 0.055, colour: RGBA(hex: 0xF59E0B))
        shapes([(circle(0.5, 0.5, 0.22), RGBA(hex: 0xFFC61A))])
    }

    func moon() {
        // A crescent: the far side of one circle, closed by the arc of a
        // second circle inside it.
        let (c1, r1) = ((0.46, 0.52), 0.36), (c2, r2) = ((0.64, 0.4), 0.3)
        shapes([({ crescent(c1, r1, c2, r2) }, RGBA(hex: 0xF7D154))])
        dot(0.3, 0.5, 0.035)
    }

    private func crescent(_ c1: (Double, Double), _ r1: Double, _ c2: (Double, Double), _ r2: Double) {
        let dx = c2.0 - c1.0, dy = c2.1 - c1.1, d = (dx * dx + dy * dy).squareRoot()
        let towardB = atan2(dy, dx)
        let alpha = acos((d * d + r1 * r1 - r2 * r2) / (2 * d * r1))
        let p = (c1.0 + r1 * cos(towardB + alpha), c1.1 + r1 * sin(towardB + alpha))
        let q = (c1.0 + r1 * cos(towardB - alpha), c1.1 + r1 * sin(towardB - alpha))
        cairo_new_sub_path(cr)
        cairo_arc(cr, c1.0, c1.1, r1, towardB + alpha, towardB - alpha + 2 * .pi)
        // Back from q to p along the second circle, on its side facing the first.
        cairo_arc_negative(cr, c2.0, c2.1, r2, atan2(q.1 - c2.1, q.0 - c2.0), atan2(p.1 - c2.1, p.0 - c2.0))
        cairo_close_path(cr)
    }

    func star() {
        let points = (0..<10).map { i -> (Double, Double) in
            let a = -Double.pi / 2 + Double(i) * .pi / 5, r = i % 2 == 0 ? 0.42 : 0.18
            return (0.5 + r * cos(a), 0.54 + r * sin(a))
        }
        shapes([(polygon(points), RGBA(hex: 0xFFC107))])
    }

    func heart() {
        shapes([({
            cairo_move_to(cr, 0.5, 0.86)
            cairo_curve_to(cr, 0.08, 0.58, 0.1, 0.18, 0.32, 0.18)
            cairo_curve_to(cr, 0.42, 0.18, 0.5, 0.26, 0.5, 0.34)
            cairo_curve_to(cr, 0.5, 0.26, 0.58, 0.18, 0.68, 0.18)
            cairo_curve_to(cr, 0.9, 0.18, 0.92, 0.58, 0.5, 0.86)
            cairo_close_path(cr)
        }, RGBA(hex: 0xE53935))])
    }

    func tree() {
        shapes([(rect(0.43, 0.5, 0.57, 0.9), RGBA(hex: 0x8D5524))])
        shapes([(circle(0.5, 0.36, 0.24), RGBA(hex: 0x7CB342)),
                (circle(0.31, 0.52, 0.15), RGBA(hex: 0x7CB342)),
                (circle(0.69, 0.52, 0.15), RGBA(hex: 0x7CB342))])
    }

    func flower() {
        lines([((0.5, 0.5), (0.5, 0.92))], width: 0.1)
        lines([((0.5, 0.5), (0.5, 0.92))], width: 0.05, colour: RGBA(hex: 0x7CB342))
        shapes([(ellipse(0.64, 0.78, 0.12, 0.06), RGBA(hex: 0x8BC34A))])
        let petals = (0..<5).map { i -> (path: () -> Void, colour: RGBA) in
            let a = -Double.pi / 2 + Double(i) * 2 * .pi / 5
            return (circle(0.5 + 0.17 * cos(a), 0.38 + 0.17 * sin(a), 0.12), RGBA(hex: 0xEC407A))
        }
        shapes(petals)
        shapes([(circle(0.5, 0.38, 0.09), RGBA(hex: 0xFFD54F))])
    }

    func fish() {
        shapes([(polygon([(0.68, 0.5), (0.92, 0.3), (0.92, 0.7)]), RGBA(hex: 0x4DD0E1)),
                (ellipse(0.44, 0.5, 0.32, 0.2), RGBA(hex: 0x4DD0E1))])
        dot(0.28, 0.45, 0.04)
    }

    func house() {
        shapes([(rect(0.2, 0.45, 0.8, 0.88), RGBA(hex: 0xFFCC80))])
        shapes([(polygon([(0.1, 0.48), (0.5, 0.12), (0.9, 0.48)]), RGBA(hex: 0xD84315))])
        shapes([(rect(0.43, 0.62, 0.57, 0.88), RGBA(hex: 0x8D5524))])
    }

    func boat() {
        lines([((0.5, 0.64), (0.5, 0.12))], width: 0.05)
        shapes([(polygon([(0.54, 0.14), (0.54, 0.58), (0.84, 0.58)]), RGBA(hex: 0xFFF59D)),
                (polygon([(0.46, 0.22), (0.46, 0.58), (0.22, 0.58)]), RGBA(hex: 0xFFF59D))])
        shapes([(polygon([(0.1, 0.64), (0.9, 0.64), (0.76, 0.84), (0.24, 0.84)]), RGBA(hex: 0x8D6E63))])
    }

    func apple() {
        lines([((0.5, 0.32), (0.55, 0.14))], width: 0.06, colour: RGBA(hex: 0x6D4C41))
        shapes([(ellipse(0.66, 0.2, 0.12, 0.06), RGBA(hex: 0x689F38))])
        shapes([(circle(0.37, 0.56, 0.25), RGBA(hex: 0xE53935)),
                (circle(0.63, 0.56, 0.25), RGBA(hex: 0xE53935))])
    }

    func cat() {
        shapes([(polygon([(0.24, 0.48), (0.26, 0.12), (0.48, 0.32)]), RGBA(hex: 0xFB8C00)),
                (polygon([(0.76, 0.48), (0.74, 0.12), (0.52, 0.32)]), RGBA(hex: 0xFB8C00)),
                (circle(0.5, 0.56, 0.3), RGBA(hex: 0xFB8C00))])
        dot(0.39, 0.52, 0.045)
        dot(0.61, 0.52, 0.045)
        shapes([(polygon([(0.46, 0.63), (0.54, 0.63), (0.5, 0.68)]), RGBA(hex: 0xF48FB1))])
        lines([((0.14, 0.62), (0.36, 0.66)), ((0.14, 0.74), (0.36, 0.7)),
               ((0.86, 0.62), (0.64, 0.66)), ((0.86, 0.74), (0.64, 0.7))], width: 0.025)
    }

    func mushroom() {
        shapes([(rect(0.38, 0.48, 0.62, 0.88, radius: 0.06), RGBA(hex: 0xFFF3E0))])
        shapes([({
            cairo_new_sub_path(cr)
            cairo_arc(cr, 0.5, 0.52, 0.38, .pi, 2 * .pi)
            cairo_close_path(cr)
        }, RGBA(hex: 0xE53935))])
        dot(0.36, 0.4, 0.06, RGBA(hex: 0xFFFFFF))
        dot(0.58, 0.3, 0.05, RGBA(hex: 0xFFFFFF))
        dot(0.66, 0.45, 0.045, RGBA(hex: 0xFFFFFF))
    }

    func umbrella() {
        lines([((0.5, 0.5), (0.5, 0.8))], width: 0.05)
        SessionSignRenderer.setSource(cr, Self.ink)
        cairo_set_line_width(cr, 0.05)
        cairo_new_sub_path(cr)
        cairo_arc_negative(cr, 0.42, 0.8, 0.08, 0, .pi)
        cairo_stroke(cr)
        shapes([({
            cairo_new_sub_path(cr)
            cairo_arc(cr, 0.5, 0.52, 0.4, .pi, 2 * .pi)
            cairo_close_path(cr)
        }, RGBA(hex: 0x7E57C2))])
    }

    func balloon() {
        SessionSignRenderer.setSource(cr, Self.ink)
        cairo_set_line_width(cr, 0.03)
        cairo_move_to(cr, 0.5, 0.7)
        cairo_curve_to(cr, 0.42, 0.78, 0.58, 0.84, 0.5, 0.94)
        cairo_stroke(cr)
        shapes([(polygon([(0.5, 0.64), (0.56, 0.72), (0.44, 0.72)]), RGBA(hex: 0x0A2A66)),
                (ellipse(0.5, 0.38, 0.23, 0.28), RGBA(hex: 0x0D3A8C))])
        dot(0.42, 0.28, 0.04, RGBA(hex: 0xBBDEFB))
    }

    func car() {
        shapes([(polygon([(0.26, 0.5), (0.35, 0.28), (0.65, 0.28), (0.76, 0.5)]), RGBA(hex: 0x0097A7)),
                (rect(0.08, 0.48, 0.92, 0.72, radius: 0.06), RGBA(hex: 0x0097A7))])
        shapes([(polygon([(0.34, 0.47), (0.39, 0.33), (0.49, 0.33), (0.49, 0.47)]), RGBA(hex: 0xB3E5FC)),
                (polygon([(0.53, 0.47), (0.53, 0.33), (0.62, 0.33), (0.69, 0.47)]), RGBA(hex: 0xB3E5FC))])
        shapes([(circle(0.28, 0.74, 0.1), RGBA(hex: 0x424242)), (circle(0.72, 0.74, 0.1), RGBA(hex: 0x424242))])
    }

    func snail() {
        lines([((0.74, 0.6), (0.7, 0.36)), ((0.84, 0.6), (0.88, 0.38))], width: 0.03)
        dot(0.7, 0.36, 0.04)
        dot(0.88, 0.38, 0.04)
        shapes([(rect(0.08, 0.66, 0.92, 0.82, radius: 0.08), RGBA(hex: 0xD4E157)),
                (ellipse(0.8, 0.66, 0.1, 0.1), RGBA(hex: 0xD4E157))])
        shapes([(circle(0.44, 0.5, 0.26), RGBA(hex: 0xA1887F))])
        // The shell's spiral.
        SessionSignRenderer.setSource(cr, Self.ink)
        cairo_set_line_width(cr, 0.035)
        cairo_move_to(cr, 0.44, 0.5)
        for i in 1...40 {
            let t = Double(i) / 40 * 2.2 * .pi
            let r = 0.19 * Double(i) / 40
            cairo_line_to(cr, 0.44 + r * cos(t), 0.5 + r * sin(t))
        }
        cairo_stroke(cr)
    }
}

extension SessionSignRenderer {
    /// One picture alone on white as a PNG of `size` pixels, for places
    /// without Cairo of their own (the web gallery's picture sign-in).
    public static func picturePNG(_ picture: SessionSign.Picture, size: Int) throws(SketchIOError) -> [UInt8] {
        let image = try CairoImage(width: size, height: size)
        guard let cr = cairo_create(image.surface) else { throw .cairo("no context") }
        cairo_set_source_rgb(cr, 1, 1, 1)
        cairo_paint(cr)
        let margin = Double(size) * 0.08
        drawPicture(picture, in: cr, x: margin, y: margin, size: Double(size) - 2 * margin)
        cairo_destroy(cr)
        return try image.pngData()
    }
}
