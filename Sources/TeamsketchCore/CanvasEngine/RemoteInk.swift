import Foundation
import LearnModel

/// Someone else's stroke while they draw it: the ink already on the tiles,
/// so a batch that repeats segments draws only the new ones, and a tile
/// drawn afresh shows the stroke so far.
struct RemoteInk: Hashable, Sendable {
    var color: RGBA
    var width: Double
    var start: Point
    var segments: [CubicSegment] = []
    /// Index of the next segment the sender will send; a gap (segments
    /// lost while rejoining) moves it past what was drawn.
    var drawn = 0
    /// When it began among the others, so overlapping strokes in progress
    /// are layered the same way on every tile, whenever the tile is drawn.
    var order = 0

    var end: Point { segments.last?.end ?? start }

    var stroke: Stroke {
        Stroke(author: "", color: color, width: width, start: start, segments: segments,
               startedAt: .distantPast, endedAt: .distantPast)
    }
}
