import LearnModel
import LearnRender

/// What the view needs to paint a frame, read from the engine's state.
extension CanvasEngine {
    public var tileFrame: TilePlanner.Frame { frame }

    /// Tiles to paint, bottom first.
    public var tilesToPaint: [TileKey] { tiles.paintOrder(frame) }

    /// The minimap while zoomed.
    public var minimap: MinimapModel? { viewport.isZoomed ? MinimapModel(viewport) : nil }

    /// Ink not yet on the tiles: the samples of the own stroke that are not
    /// fitted into a segment yet (drawn as a polyline so ink follows the pen
    /// with no lag), or the dot of a tap that has not moved.
    public var liveTail: InkRun? {
        guard let builder, strokeTool == .pen else { return nil }
        let tail = builder.pendingTail
        if builder.segments.isEmpty && tail.count == 1 {
            return InkRun(color: builder.color, width: builder.width, start: builder.start, segments: [], isDot: true)
        }
        guard let first = tail.first else { return nil }
        var from = first
        let lines = tail.dropFirst().map { p in
            defer { from = p }
            return CubicSegment.line(from: from, to: p)
        }
        return InkRun(color: builder.color, width: builder.width, start: first, segments: lines)
    }

    /// The eraser's circle while erasing: centre and radius in widget units.
    public var eraserRing: (center: Point, radius: Double)? {
        guard tool == .eraser || strokeTool == .eraser, builder != nil || lastEraserPoint != nil else { return nil }
        let p = viewport.toWidget(lastEraserPoint ?? viewport.toCanvas(pointer))
        return (p, Self.eraserRadius * viewport.scale)
    }

    /// Strokes that are on the tiles but not in the document: the own stroke
    /// in progress or waiting for the host, and other people's in progress.
    /// A tile drawn afresh draws them on top of the document's.
    public var liveStrokes: [Stroke] {
        var out: [Stroke] = []
        if let builder, strokeTool == .pen, !builder.segments.isEmpty {
            out.append(Stroke(id: builder.id, author: author, color: builder.color, width: builder.width,
                              start: builder.start, segments: builder.segments, startedAt: builder.startedAt,
                              endedAt: builder.startedAt))
        }
        out += awaitingHost.values.sorted { $0.startedAt < $1.startedAt }
        out += remote.values.filter { !$0.segments.isEmpty }.sorted { $0.order < $1.order }.map(\.stroke)
        return out
    }
}
