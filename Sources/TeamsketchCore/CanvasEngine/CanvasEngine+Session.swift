import Foundation
import LearnModel
import LearnRender

/// Other people's ink and the host's order in a LAN session.
extension CanvasEngine {
    mutating func remoteExtended(_ id: UUID, firstIndex: Int, segments: [CubicSegment]) {
        guard var r = remote[id] else { return }
        // Segments already drawn are skipped; a gap (lost while rejoining)
        // is bridged by continuing from the last ink drawn.
        let skip = max(0, r.drawn - firstIndex)
        guard skip < segments.count else { return }
        let fresh = Array(segments[skip...])
        ink(InkRun(color: r.color, width: r.width, start: r.end, segments: fresh))
        r.segments += fresh
        r.drawn = max(r.drawn, firstIndex) + fresh.count
        remote[id] = r
        emit(.invalidate)
    }

    /// The tiles are drawn again where the refused stroke lay; it is in
    /// neither the document nor `liveStrokes` any more, so it is gone.
    mutating func ownStrokeRefused(_ id: UUID) {
        if let s = awaitingHost.removeValue(forKey: id) {
            redraw(s.bounds.insetBy(-s.width))
        } else if let b = builder, b.id == id {
            // Still drawing: the rest of this stroke goes nowhere either.
            builder = nil
            var r = Rect.null.union(b.start)
            for s in b.segments { r = r.union(s.end).union(s.c1).union(s.c2) }
            redraw(r.insetBy(-b.width))
        }
        emit(.invalidate)
    }

    mutating func sharedOpApplied(_ op: SketchOp, isOwn: Bool) {
        switch op {
        case .addStroke(let s):
            guard document.apply(op) else { return }
            emit(.store(op))
            if isOwn {
                // The host kept less than was drawn (pieces refused, or past
                // a stroke's limit): the sheet shows what the sketch holds.
                if let drawn = awaitingHost.removeValue(forKey: s.id), drawn.segments.count > s.segments.count {
                    redraw(drawn.bounds.insetBy(-drawn.width))
                }
            } else {
                let r = remote.removeValue(forKey: s.id)
                let drawn = r?.drawn ?? 0
                if !s.isPlain {
                    // A styled stroke (from Xournal++: fill, pressure, dashes,
                    // highlighter) is no run of plain ink: the tiles redraw
                    // it from the document, with whatever was drawn live.
                    redraw(s.bounds.insetBy(-1))
                } else if s.isDot && drawn == 0 {
                    ink(InkRun(color: s.color, width: s.width, start: s.start, segments: [], isDot: true))
                } else if drawn < s.segments.count {
                    ink(InkRun(color: s.color, width: s.width, start: r?.end ?? s.start,
                               segments: Array(s.segments.dropFirst(drawn))))
                }
                minimapGeneration += 1
            }
        case .eraseStroke(let id, _, _):
            let bounds = document.strokes.first { $0.id == id }?.bounds
            guard document.apply(op), let bounds else { return }
            emit(.store(op))
            redraw(bounds)
        case .clear:
            guard document.apply(op) else { return }
            emit(.store(op))
            remote = [:]
            effects += tiles.forgetAll()
            minimapGeneration += 1
        }
        emit(.invalidate)
    }
}
