import Foundation
import LearnModel
import LearnRender

/// This device's pen and eraser: strokes built from the samples, ink for
/// the tiles, ops for the document or intents for the session.
extension CanvasEngine {
    mutating func press(at p: Point, eraserTip: Bool) -> Bool {
        pointer = p
        if let minimap, minimap.contains(p) {
            viewport.centre(on: minimap.canvasPoint(at: p))
            emit(.invalidate)
            return true
        }
        guard drawingEnabled else { return true }
        // A stylus's eraser end where erasing is not allowed does nothing:
        // no ink appears where the child meant to rub out.
        if eraserTip && !mayErase { return true }
        let c = viewport.toCanvas(p)
        strokeTool = eraserTip ? .eraser : tool
        switch strokeTool {
        case .pen:
            let b = StrokeBuilder(author: author, color: pen.color.rgba, width: pen.width.units, start: c, at: Date(),
                                  minDistance: Self.minimumMove / viewport.scale)
            builder = b
            if isShared { emit(.session(.beginStroke(id: b.id, color: b.color, width: b.width, start: b.start))) }
        case .eraser:
            lastEraserPoint = c
            erasingStep = false
            erase(from: c, to: c)
        }
        emit(.invalidate)
        return true
    }

    mutating func move(to widgetPoint: Point) {
        let p = viewport.toCanvas(widgetPoint)
        if var b = builder {
            let segments = b.add(p)
            builder = b
            if !segments.isEmpty {
                let n = b.segments.count - segments.count
                let from = n > 0 ? b.segments[n - 1].end : b.start
                ink(InkRun(color: b.color, width: b.width, start: from, segments: segments))
                if isShared { emit(.session(.addSegments(segments, to: b.id))) }
            }
            emit(.invalidate)
        } else if let last = lastEraserPoint {
            erase(from: last, to: p)
            lastEraserPoint = p
            emit(.invalidate)
        }
    }

    mutating func finishStroke() {
        if var b = builder {
            let from = b.segments.last?.end ?? b.start
            let (tail, stroke) = b.finish(at: Date())
            builder = nil
            if stroke.isDot {
                ink(InkRun(color: stroke.color, width: stroke.width, start: stroke.start, segments: [], isDot: true))
            } else if !tail.isEmpty {
                ink(InkRun(color: stroke.color, width: stroke.width, start: from, segments: tail))
            }
            if isShared {
                if !tail.isEmpty { emit(.session(.addSegments(tail, to: stroke.id))) }
                emit(.session(.endStroke(stroke.id)))
                awaitingHost[stroke.id] = stroke
            } else {
                let op = SketchOp.addStroke(stroke)
                if document.apply(op) { emit(.store(op)) }
            }
            remember(.drew(stroke.id))
            minimapGeneration += 1
        }
        lastEraserPoint = nil
        emit(.invalidate)
    }

    /// Drops the stroke in progress (a pinch started, time ran out) and
    /// removes its ink from the tiles. A shared stroke is already on the
    /// others' screens, so it is finished instead.
    mutating func cancelStroke() {
        if isShared, builder != nil { return finishStroke() }
        if let b = builder {
            builder = nil
            var r = Rect.null.union(b.start)
            for s in b.segments { r = r.union(s.end).union(s.c1).union(s.c2) }
            redraw(r.insetBy(-b.width))
        }
        lastEraserPoint = nil
        emit(.invalidate)
    }

    mutating func erase(from a: Point, to b: Point) {
        let rule = permissions.erase
        let hits = StrokeHitTest.strokes(in: document.strokes, hitAlong: a, to: b, radius: Self.eraserRadius)
            .filter { id in document.strokes.last(where: { $0.id == id }).map { rule.eraserTakes($0, by: author) } ?? false }
        guard !hits.isEmpty else { return }
        rememberErased(hits.compactMap { id in document.strokes.last { $0.id == id } })
        take(hits)
    }

    /// Erases these strokes: alone at once, shared through the host.
    mutating func take(_ hits: [UUID]) {
        if isShared {
            // The host orders erasures like everything else; the ink goes
            // when the op comes back (a LAN round trip, a few ms).
            for id in hits { emit(.session(.erase(id))) }
            return
        }
        var damaged = Rect.null
        for id in hits {
            guard let stroke = document.strokes.first(where: { $0.id == id }) else { continue }
            let op = SketchOp.eraseStroke(id: id, by: author, at: Date())
            if document.apply(op) {
                damaged = damaged.union(stroke.bounds)
                emit(.store(op))
            }
        }
        redraw(damaged)
    }
}
