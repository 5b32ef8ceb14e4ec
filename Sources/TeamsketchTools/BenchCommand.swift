import ArgumentParser
import CGtk
import Foundation
import LearnModel
import LearnRender
import TeamsketchCore
import TeamsketchCommandSupport

/// `TeamsketchTools bench [--file X.xopp]` — in-process micro-benchmarks,
/// one `NAME: VALUE UNIT` line each (scripts/bench.sh adds the whole-process
/// figures around them).
struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Run the rendering and import benchmarks.",
        discussion: "Without --file, the standard 5000-stroke × 60-point sketch (seed 1) is generated in memory.")

    @Option(help: "The .xopp or .teamsketch sketch to measure.")
    var file: String?

    @Option(help: "Timed runs per figure (the median is printed).")
    var runs = 9

    @Option(help: "Segments drawn for the incremental-segment figure.")
    var segments = 2000

    func validate() throws {
        guard runs >= 1 else { throw ValidationError("--runs must be at least 1.") }
        guard segments >= 1 else { throw ValidationError("--segments must be at least 1.") }
    }

    func run() throws {
        let doc: SketchDocument
        do throws(SketchIOError) {
            if let file {
                var loaded: SketchDocument?
                let t = try Stopwatch.median(runs: runs) { () throws(SketchIOError) in
                    loaded = try SketchImport.read(file)
                }
                doc = loaded!
                report("import_xopp", t * 1000, "ms")
            } else {
                doc = SketchGenerator(seed: 1).document(strokes: 5000, pointsPerStroke: 60, shape: .polyline)
            }
            report("sketch_strokes", Double(doc.strokes.count), "strokes")
            report("sketch_segments", Double(doc.strokes.reduce(0) { $0 + $1.segments.count }), "segments")

            for zoom in [1, 3] {
                let cpu0 = Stopwatch.processCPUSeconds()
                let t = try RenderBench.fullRedraw(doc, zoom: Double(zoom), runs: runs)
                let cpu = (Stopwatch.processCPUSeconds() - cpu0) / Double(runs + 1)
                report("redraw_\(zoom)x", t * 1000, "ms")
                // All cores together: what the redraw costs when the machine is busy.
                report("redraw_\(zoom)x_cpu", cpu * 1000, "ms")
            }
            // The same picture through Cairo's general stroker, for reference.
            let cairo = try RenderBench.fullRedraw(doc, zoom: 1, runs: min(runs, 3), fastInk: false)
            report("redraw_1x_cairo_stroker", cairo * 1000, "ms")
            // What a pupil waits for after zooming to 3× on a full-HD kiosk:
            // the visible tiles drawn afresh and painted, as the canvas does.
            let settle = try RenderBench.zoomSettle(doc, zoom: 3, runs: runs)
            report("zoom_settle_3x", settle.seconds * 1000, "ms")
            report("zoom_settle_3x_cpu", settle.cpuSeconds * 1000, "ms")
            report("zoom_cache_3x", Double(settle.cacheBytes) / 1_048_576, "MB")
            for zoom in [1, 3] {
                let t = try RenderBench.incrementalSegment(zoom: Double(zoom), count: segments)
                report("incremental_segment_\(zoom)x", t * 1e6, "us")
            }
            let png = try Stopwatch.median(runs: runs) { () throws(SketchIOError) in
                _ = try SketchExport.pngData(doc, width: 1600)
            }
            report("export_png_in_process", png * 1000, "ms")
        } catch {
            throw CLIFailure(message: error.description)
        }
    }

    private func report(_ name: String, _ value: Double, _ unit: String) {
        let text = value >= 100 || value == value.rounded() ? String(Int(value.rounded())) : String(format: "%.3g", value)
        print("\(name): \(text) \(unit)")
        fflush(nil)
    }
}

/// The drawing measurements, on image surfaces like the canvas's cache.
enum RenderBench {
    /// Median time to draw the whole sketch (background and every stroke) into
    /// a 1600·zoom × 1000·zoom surface, as after a zoom settles.
    static func fullRedraw(_ doc: SketchDocument, zoom: Double, runs: Int,
                           fastInk: Bool = true) throws(SketchIOError) -> Double {
        let image = try CairoImage(width: Int(doc.meta.width * zoom), height: Int(doc.meta.height * zoom))
        guard let cr = cairo_create(image.surface) else { throw .cairo("no context") }
        defer { cairo_destroy(cr) }
        cairo_scale(cr, zoom, zoom)
        return Stopwatch.median(runs: runs) {
            SketchRenderer.draw(doc, in: cr, fastInk: fastInk)
            cairo_surface_flush(image.surface)
        }
    }

    /// The canvas widget of a full-HD kiosk (the window maximised, minus the
    /// tool bars), in widget units at one device pixel each.
    static let kioskCanvas = (width: 1920.0, height: 940.0)

    /// Median time from a zoom to `zoom` coming to rest (the settle timer
    /// firing) until the crisp frame is ready: the engine's decision, the
    /// visible tiles rendered at the new scale, and the frame painted from
    /// them. Each run starts from the settled 1× view, as after opening, and
    /// zooms around the centre. Also returns what the tile cache then holds.
    static func zoomSettle(_ doc: SketchDocument, zoom: Double,
                           runs: Int) throws(SketchIOError) -> (seconds: Double, cpuSeconds: Double, cacheBytes: Int) {
        let (w, h) = kioskCanvas
        let screen = try CairoImage(width: Int(w), height: Int(h))
        var engine = CanvasEngine(document: doc, author: "bench")
        let tiles = InkTileCache()
        func carryOut(_ effects: [CanvasEffect]) {
            for e in effects {
                switch e {
                case let .render(keys, within):
                    tiles.render(keys, within: within, meta: engine.document.meta, strokes: engine.document.strokes)
                case .drop(let keys): tiles.drop(keys)
                default: break
                }
            }
        }
        func send(_ event: CanvasEvent) -> [CanvasEffect] {
            engine.handle(event)
            return engine.takeEffects()
        }
        func settle(_ effects: [CanvasEffect]) {
            for case .scheduleSettle(let g) in effects { carryOut(send(.settle(generation: g))) }
        }
        carryOut(send(.resize(width: w, height: h, deviceScale: 1)))
        carryOut(send(.frame))
        var samples: [Double] = [], cpu: [Double] = []
        var bytes = 0
        for run in 0...runs {
            settle(send(.zoom(1, anchor: nil)))
            let zoomed = send(.zoom(zoom, anchor: nil))
            let cpu0 = Stopwatch.processCPUSeconds()
            let t = Stopwatch.seconds {
                settle(zoomed)
                let cr = cairo_create(screen.surface)!
                tiles.paint(engine.tilesToPaint, on: cr, origin: engine.viewport.origin, scale: engine.viewport.scale)
                cairo_destroy(cr)
                cairo_surface_flush(screen.surface)
            }
            let used = Stopwatch.processCPUSeconds() - cpu0
            bytes = tiles.byteCount
            if run > 0 {  // the first run warms up
                samples.append(t)
                cpu.append(used)
            }
        }
        return (Stopwatch.median(of: samples), Stopwatch.median(of: cpu), bytes)
    }

    /// Median time to add one smoothed broad-pen segment to the canvas while
    /// drawing, as the canvas does for every new segment: the engine names the
    /// tiles the segment damages (of the view and, while zoomed, of the
    /// overview) and the segment is stroked into each. The kiosk canvas,
    /// settled at `zoom` around its centre with its margin and overview drawn.
    static func incrementalSegment(zoom: Double, count: Int) throws(SketchIOError) -> Double {
        let (w, h) = kioskCanvas
        var engine = CanvasEngine(document: SketchDocument(meta: SketchMeta(name: "bench")), author: "bench")
        let tiles = InkTileCache()
        func send(_ event: CanvasEvent) {
            engine.handle(event)
            for e in engine.takeEffects() {
                switch e {
                case let .render(keys, within): tiles.render(keys, within: within, meta: engine.document.meta, strokes: [])
                case .drop(let keys): tiles.drop(keys)
                case .scheduleSettle(let g): send(.settle(generation: g))
                case .scheduleIdle: send(.idle)
                default: break
                }
            }
        }
        send(.resize(width: w, height: h, deviceScale: 1))
        send(.frame)
        send(.zoom(zoom, anchor: nil))

        // Real builder output: cubic pieces as the pen produces them, moved
        // into the visible part of the canvas.
        let seen = engine.viewport.visibleCanvasRect
        var pieces: [InkRun] = []
        for stroke in SketchGenerator(seed: 7, canvasWidth: seen.width, canvasHeight: seen.height)
            .strokes(count: count / 20 + 1, pointsPerStroke: 62) {
            let d = Point(seen.x, seen.y)
            var p = stroke.start + d
            for s in stroke.segments {
                let moved = CubicSegment(c1: s.c1 + d, c2: s.c2 + d, end: s.end + d)
                pieces.append(InkRun(color: PenColor.red.rgba, width: PenWidth.broad.units, start: p, segments: [moved]))
                p = moved.end
            }
        }
        var samples: [Double] = []
        samples.reserveCapacity(count)
        for i in 0..<count {
            let run = pieces[i % pieces.count]
            samples.append(Stopwatch.seconds {
                let damaged = engine.tiles.damaged(by: run.bounds)
                tiles.draw(run, into: damaged)
                for key in damaged { if let image = tiles.image(key) { cairo_surface_flush(image.surface) } }
            })
        }
        return Stopwatch.median(of: samples)
    }
}
