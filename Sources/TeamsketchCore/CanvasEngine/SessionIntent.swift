import Foundation
import LearnModel

/// What this device's drawing asks of a LAN session: its own stroke streams
/// out while the pen moves, and erasing goes through the host like every op.
public enum SessionIntent: Hashable, Sendable {
    case beginStroke(id: UUID, color: RGBA, width: Double, start: Point)
    case addSegments([CubicSegment], to: UUID)
    case endStroke(UUID)
    case erase(UUID)

    /// Hands the intent to the session.
    @MainActor
    public func send(to link: any CanvasSessionLink) {
        switch self {
        case let .beginStroke(id, color, width, start): link.beginStroke(id: id, color: color, width: width, start: start)
        case let .addSegments(segments, id): link.addSegments(segments, to: id)
        case let .endStroke(id): link.endStroke(id)
        case let .erase(id): link.erase(id)
        }
    }
}

/// The session as the canvas sees it: where its intents go.
@MainActor
public protocol CanvasSessionLink: AnyObject {
    func beginStroke(id: UUID, color: RGBA, width: Double, start: Point)
    func addSegments(_ s: [CubicSegment], to id: UUID)
    func endStroke(_ id: UUID)
    func erase(_ id: UUID)
}
