import CGtk
import Foundation
import LearnModel
import LearnRender
import TeamsketchCore
import TeamsketchDesktopApp

/// The class wall without a window, for its bench: one watched sheet per
/// group, fed by the groups' session events and painted once a frame into
/// an image of a cell's size, exactly as `CanvasView` paints a wall cell
/// (same engine, same tiles, same `SheetPainter`). Confined to one thread:
/// the event loop its watchers run on, so that thread's CPU time is the
/// wall's whole cost.
final class HeadlessWall: @unchecked Sendable {
    private final class Cell {
        var engine: CanvasEngine
        let tiles = InkTileCache()
        let image: CairoImage
        var dirty = true
        var watching = false
        /// Segments received since the last frame: (stroke, first, count).
        var arrived: [(UUID, Int, Int)] = []

        init(width: Int, height: Int) throws {
            engine = CanvasEngine(document: SketchDocument(meta: SketchMeta(name: "")), author: "",
                                  isShared: true, permissions: .watching)
            image = try CairoImage(width: width, height: height)
            send(.resize(width: Double(width), height: Double(height), deviceScale: 1))
        }

        func send(_ event: CanvasEvent) {
            engine.handle(event)
            var effects = engine.takeEffects()
            while !effects.isEmpty {
                var idle = false
                for e in effects where !engine.carryOut(e, on: tiles) {
                    if case .scheduleIdle = e { idle = true }
                    if case .invalidate = e { dirty = true }
                }
                effects = []
                if idle {
                    engine.handle(.idle)
                    effects = engine.takeEffects()
                }
            }
        }
    }

    private var cells: [Cell]
    private let recorder: LatencyRecorder
    private(set) var framesPainted = 0

    init(groups: Int, cellWidth: Int, cellHeight: Int, recorder: LatencyRecorder) throws {
        cells = try (0..<groups).map { _ in try Cell(width: cellWidth, height: cellHeight) }
        self.recorder = recorder
    }

    var watching: Int { cells.filter(\.watching).count }

    /// A group's session event, on the wall's thread.
    func handle(_ group: Int, _ event: SessionEvent) {
        let cell = cells[group]
        switch event {
        case .accepted, .documentReset: cell.watching = true
        case .strokeExtended(let id, _, let first, let segments, false): cell.arrived.append((id, first, segments.count))
        default: break
        }
        if let sheet = CanvasEvent(sheetOf: event) { cell.send(sheet) }
    }

    /// One frame: every cell with new ink is painted, and its segments
    /// count as on the screen from now.
    func frame() {
        for cell in cells where cell.dirty || !cell.arrived.isEmpty {
            cell.send(.frame)
            let cr = cairo_create(cell.image.surface)!
            SheetPainter.paint(cell.engine, tiles: cell.tiles, on: cr)
            cairo_destroy(cr)
            cairo_surface_flush(cell.image.surface)
            for (id, first, count) in cell.arrived { recorder.arrived(id, from: first, count: count) }
            cell.arrived.removeAll(keepingCapacity: true)
            cell.dirty = false
            framesPainted += 1
        }
    }

    /// The calling thread's CPU time so far, in seconds.
    static func threadCPUSeconds() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}
