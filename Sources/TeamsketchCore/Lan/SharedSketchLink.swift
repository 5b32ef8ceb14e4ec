import Foundation
import LearnModel
import LearnNet

/// Where this device's drawing in a shared sketch goes: to the session it
/// hosts or to the host it joined. `clear` and `memberAccounts` are the
/// host's (a member's link does nothing, and names nobody).
public struct SharedSketchLink: Sendable {
    public var beginStroke: @Sendable (_ id: UUID, _ color: RGBA, _ width: Double, _ start: Point) -> Void
    public var addSegments: @Sendable (_ segments: [CubicSegment], _ id: UUID) -> Void
    public var endStroke: @Sendable (UUID) -> Void
    public var erase: @Sendable (UUID) -> Void
    /// Starts a new sheet for everyone.
    public var clear: @Sendable () -> Void
    /// The school accounts of the drawers the host let in.
    public var memberAccounts: @Sendable () async -> [UUID]

    public init(beginStroke: @escaping @Sendable (UUID, RGBA, Double, Point) -> Void,
                addSegments: @escaping @Sendable ([CubicSegment], UUID) -> Void,
                endStroke: @escaping @Sendable (UUID) -> Void, erase: @escaping @Sendable (UUID) -> Void,
                clear: @escaping @Sendable () -> Void = {}, memberAccounts: @escaping @Sendable () async -> [UUID] = { [] }) {
        self.beginStroke = beginStroke
        self.addSegments = addSegments
        self.endStroke = endStroke
        self.erase = erase
        self.clear = clear
        self.memberAccounts = memberAccounts
    }
}

extension SharedSketchLink {
    static func hosting(_ h: SessionHost) -> SharedSketchLink {
        SharedSketchLink(beginStroke: { h.beginStroke(id: $0, color: $1, width: $2, start: $3) },
                         addSegments: { h.addSegments($0, to: $1) }, endStroke: { h.endStroke($0) },
                         erase: { h.erase($0) }, clear: { h.clear() }, memberAccounts: { await h.memberAccounts() })
    }

    static func member(_ c: SessionClient) -> SharedSketchLink {
        SharedSketchLink(beginStroke: { c.beginStroke(id: $0, color: $1, width: $2, start: $3) },
                         addSegments: { c.addSegments($0, to: $1) }, endStroke: { c.endStroke($0) },
                         erase: { c.erase($0) })
    }
}
