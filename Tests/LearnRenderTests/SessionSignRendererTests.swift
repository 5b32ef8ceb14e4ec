import CCairo
import Foundation
import LearnModel
import Testing
@testable import LearnRender

@Suite struct SessionSignRendererTests {
    typealias Picture = SessionSign.Picture

    /// One picture on white, `size` pixels square.
    func picture(_ p: Picture, size: Int = 64) throws -> CairoImage {
        let image = try CairoImage(width: size, height: size)
        let cr = try #require(cairo_create(image.surface))
        defer { cairo_destroy(cr) }
        cairo_set_source_rgb(cr, 1, 1, 1)
        cairo_paint(cr)
        SessionSignRenderer.drawPicture(p, in: cr, x: 0, y: 0, size: Double(size))
        return image
    }

    func isWhite(_ px: (r: UInt8, g: UInt8, b: UInt8, a: UInt8)) -> Bool { px.r > 245 && px.g > 245 && px.b > 245 }

    /// Pixels that are not white, as a set of coordinates.
    func ink(_ image: CairoImage) -> Set<Int> {
        var set = Set<Int>()
        for y in 0..<image.height {
            for x in 0..<image.width where !isWhite(image.pixel(x: x, y: y)) { set.insert(y * image.width + x) }
        }
        return set
    }

    @Test(arguments: Picture.allCases)
    func everyPictureIsBoldAndStaysInItsTile(_ p: Picture) throws {
        let image = try picture(p)
        let covered = Double(ink(image).count) / Double(64 * 64)
        // Big enough to see from a pupil's seat, not a blob filling the tile.
        #expect(covered > 0.15 && covered < 0.75, "\(p) covers \(covered)")
        // A white margin all round: nothing spills onto the band.
        for i in 0..<64 {
            for (x, y) in [(i, 0), (i, 63), (0, i), (63, i)] {
                #expect(isWhite(image.pixel(x: x, y: y)), "\(p) touches its tile's edge at \(x),\(y)")
            }
        }
    }

    @Test func everyTwoPicturesLookDifferent() throws {
        let images = try Picture.allCases.map { try picture($0) }
        for i in images.indices {
            for j in images.indices where j > i {
                var differing = 0
                for y in 0..<64 {
                    for x in 0..<64 {
                        let a = images[i].pixel(x: x, y: y), b = images[j].pixel(x: x, y: y)
                        if abs(Int(a.r) - Int(b.r)) + abs(Int(a.g) - Int(b.g)) + abs(Int(a.b) - Int(b.b)) > 120 { differing += 1 }
                    }
                }
                // Shape and colour together: a fifth of the tile at least
                // differs clearly between any two pictures.
                #expect(Double(differing) / Double(64 * 64) > 0.2,
                        "\(Picture.allCases[i]) and \(Picture.allCases[j]) look alike (\(differing) pixels differ)")
            }
        }
    }

    @Test func theBandHasTheSignsColourAndTheTilesItsPictures() throws {
        let sign = SessionSign(first: .sun, second: .boat, colour: .purple)
        let h = 100.0, w = h * SessionSignRenderer.aspect
        let image = try CairoImage(width: Int(w.rounded(.up)), height: Int(h))
        let cr = try #require(cairo_create(image.surface))
        cairo_set_source_rgb(cr, 1, 1, 1)
        cairo_paint(cr)
        SessionSignRenderer.draw(sign, in: cr, x: 0, y: 0, width: w, height: h)
        cairo_destroy(cr)
        let purple = sign.colour.rgba
        let band = image.pixel(x: Int(w / 2), y: 5)
        #expect(abs(Int(band.r) - Int(purple.r * 255)) <= 2 && abs(Int(band.g) - Int(purple.g * 255)) <= 2
                && abs(Int(band.b) - Int(purple.b * 255)) <= 2)
        // Tile one shows the sun: its centre is the sun's yellow.
        let tile = h / 1.25, gap = tile * 0.125
        let sunCentre = image.pixel(x: Int(gap + tile / 2), y: Int(gap + tile / 2))
        #expect(sunCentre.r > 240 && sunCentre.g > 180 && sunCentre.b < 60)
        // A tile's corner is white, not band.
        #expect(isWhite(image.pixel(x: Int(gap + 6), y: Int(gap + 6))))
    }

    @Test func aCopysWarningCoversTheSign() throws {
        let h = 80.0, w = h * SessionSignRenderer.aspect
        func drawn(copy: Bool) throws -> CairoImage {
            let image = try CairoImage(width: Int(w.rounded(.up)), height: Int(h))
            let cr = try #require(cairo_create(image.surface))
            defer { cairo_destroy(cr) }
            cairo_set_source_rgb(cr, 1, 1, 1)
            cairo_paint(cr)
            SessionSignRenderer.draw(SessionSign(first: .tree, second: .fish, colour: .green), in: cr, x: 0, y: 0, width: w, height: h)
            if copy { SessionSignRenderer.drawCopyWarning(in: cr, x: 0, y: 0, width: w, height: h) }
            return image
        }
        let real = try drawn(copy: false), copy = try drawn(copy: true)
        var differing = 0
        for y in 0..<real.height {
            for x in 0..<real.width {
                let a = real.pixel(x: x, y: y), b = copy.pixel(x: x, y: y)
                if abs(Int(a.r) - Int(b.r)) + abs(Int(a.g) - Int(b.g)) + abs(Int(a.b) - Int(b.b)) > 60 { differing += 1 }
            }
        }
        #expect(Double(differing) / Double(real.width * real.height) > 0.4, "a copy must not look like the real sign")
        // The warning triangle's yellow sits in the middle.
        let side = h * 0.9, top = (h - side * 0.87) / 2
        let mid = copy.pixel(x: Int(w / 2 + side * 0.2), y: Int(top + side * 0.87 * 0.8))
        #expect(mid.r > 230 && mid.g > 190 && mid.b < 40)
    }

    /// The lobby's ✓ is green (#1E7B34) and Start is Adwaita's blue
    /// (#3584E4): no pixel of any sign, edges and outlines included, comes
    /// near them, so a child never takes a picture for a button (and the UI
    /// tests, which find those buttons by colour, never either).
    @Test func noSignLooksLikeTheLobbysButtons() throws {
        let buttons: [((Int, Int, Int), Int)] = [((0x1E, 0x7B, 0x34), 34), ((0x35, 0x84, 0xE4), 29)]
        let h = 96.0, w = (h * SessionSignRenderer.aspect).rounded(.up)
        let pictures = Picture.allCases
        for colour in SessionSign.Colour.allCases {
            for k in stride(from: 0, to: pictures.count, by: 2) {
                let sign = SessionSign(first: pictures[k], second: pictures[k + 1], colour: colour)
                for background in [(1.0, 1.0, 1.0), (0.98, 0.97, 0.94)] {
                    let image = try CairoImage(width: Int(w), height: Int(h))
                    let cr = try #require(cairo_create(image.surface))
                    cairo_set_source_rgb(cr, background.0, background.1, background.2)
                    cairo_paint(cr)
                    SessionSignRenderer.draw(sign, in: cr, x: 0, y: 0, width: w, height: h)
                    cairo_destroy(cr)
                    var near = 0
                    var example = ""
                    for y in 0..<image.height {
                        for x in 0..<image.width {
                            let p = image.pixel(x: x, y: y)
                            for (b, tol) in buttons
                            where abs(Int(p.r) - b.0) <= tol && abs(Int(p.g) - b.1) <= tol && abs(Int(p.b) - b.2) <= tol {
                                near += 1
                                example = "(\(p.r), \(p.g), \(p.b)) at \(x),\(y)"
                            }
                        }
                    }
                    #expect(near == 0, "\(sign) has \(near) pixels like a lobby button, e.g. \(example)")
                }
            }
        }
    }

    /// Every picture side by side, for a person to look at
    /// (Tests/ui/out/session-sign-pictures.png).
    @Test func writesASheetOfAllPictures() throws {
        let size = 96, n = Picture.allCases.count
        let sheet = try CairoImage(width: size * n / 2, height: size * 2)
        let cr = try #require(cairo_create(sheet.surface))
        cairo_set_source_rgb(cr, 1, 1, 1)
        cairo_paint(cr)
        for (i, p) in Picture.allCases.enumerated() {
            SessionSignRenderer.drawPicture(p, in: cr, x: Double(i % (n / 2) * size), y: Double(i / (n / 2) * size), size: Double(size))
        }
        cairo_destroy(cr)
        let png = try PNGEncoder.encode(sheet)
        let out = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../ui/out")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        try Data(png).write(to: out.appendingPathComponent("session-sign-pictures.png"))
        #expect(png.count > 1000)
    }
}
