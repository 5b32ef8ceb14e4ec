import Foundation
import LearnModel

/// Decides what fingers, a stylus and a mouse on the sheet mean, before
/// the canvas engine sees them: one finger draws (when the classroom allows
/// drawing with a finger), two fingers pinch-zoom and pan and never leave a
/// mark, a hand resting on the screen while a stylus is near is ignored.
/// The view only reports contacts; this turns them into `CanvasEvent`s.
///
/// A finger's first `holdBack` seconds are held back: a second finger
/// landing that soon (children rarely put two down at once) means a pinch,
/// and nothing was drawn. After that the stroke is drawn, and a second
/// finger calls it off (`cancel`: the stroke in progress is dropped).
public struct TouchArbiter: Sendable {
    public enum Source: Sendable, Hashable {
        case mouse, finger, stylus, eraser
    }

    public enum Contact: Sendable, Hashable {
        case down(id: Int, source: Source, at: Point, time: Double)
        case moved(id: Int, points: [Point], time: Double)
        case up(id: Int, at: Point, time: Double)
        /// The toolkit took the contact away.
        case cancelled(id: Int)
        /// A stylus came near the screen or left it (before it touches).
        case stylusNear(Bool, time: Double)
    }

    /// How long a finger's start is held back for a second finger.
    public static let holdBack = 0.06
    /// How long after a stylus was near or used a finger still counts as
    /// the hand holding it.
    public static let palmGuard = 0.5

    /// Whether a finger draws; off, one finger moves the sheet instead.
    public var fingerDraws: Bool

    private enum State: Sendable {
        case idle
        /// One finger, not yet drawing: its points so far.
        case pending(id: Int, started: Double, points: [Point])
        case drawing(id: Int)
        /// One finger moving the sheet (finger drawing off).
        case panning(id: Int)
        /// Two fingers: where each is, and how far apart they started.
        case pinching(ids: [Int], at: [Int: Point], startDistance: Double)
        /// Fingers left over from a pinch or a palm: nothing until all are up.
        case ignoring
        /// A pen, an eraser tip or a mouse button.
        case pen(id: Int)
    }

    private var state = State.idle
    private var fingersDown: Set<Int> = []
    private var palms: Set<Int> = []
    private var stylusNear = false
    private var lastStylus = -Double.infinity

    public init(fingerDraws: Bool = true) { self.fingerDraws = fingerDraws }

    /// Whether a touch landing now on the tools beside the sheet (pens,
    /// widths, eraser) is a hand rather than a choice: while something
    /// draws or zooms on the sheet, or a stylus is near or was a moment
    /// ago, the other hand or the drawing hand's palm rests there (the
    /// pens run along the bottom edge). Such a touch picks nothing.
    public func toolTouchIsAHand(at time: Double) -> Bool {
        switch state {
        case .pending, .drawing, .pen, .panning, .pinching:
            return true
        case .idle, .ignoring:
            return stylusNear || time - lastStylus < Self.palmGuard
        }
    }

    public mutating func handle(_ contact: Contact) -> [CanvasEvent] {
        switch contact {
        case .stylusNear(let near, let time):
            stylusNear = near
            lastStylus = time
            return []
        case let .down(id, source, point, time):
            return down(id, source, point, time)
        case let .moved(id, points, time):
            return moved(id, points, time)
        case let .up(id, point, _):
            return up(id, point)
        case .cancelled(let id):
            fingersDown.remove(id)
            palms.remove(id)
            switch state {
            case .drawing(let d) where d == id: state = .idle; return [.cancel]
            case .pen(let p) where p == id: state = .idle; return [.cancel]
            case .pending(let p, _, _) where p == id: state = .idle
            case .panning(let p) where p == id: state = .idle; return [.pinchEnded]
            case .pinching(let ids, _, _) where ids.contains(id): state = fingersDown.isEmpty ? .idle : .ignoring
                return [.pinchEnded]
            default: break
            }
            if fingersDown.isEmpty, case .ignoring = state { state = .idle }
            return []
        }
    }

    private mutating func down(_ id: Int, _ source: Source, _ point: Point, _ time: Double) -> [CanvasEvent] {
        guard source == .finger else {
            if source != .mouse { lastStylus = time }
            // A pen takes over from a resting hand: what the hand began is dropped.
            var events: [CanvasEvent] = []
            switch state {
            case .drawing: events.append(.cancel)
            case .pinching, .panning: events.append(.pinchEnded)
            default: break
            }
            state = .pen(id: id)
            return events + [.press(point, eraserTip: source == .eraser)]
        }
        // The hand holding a stylus rests on the screen: not a finger.
        if stylusNear || time - lastStylus < Self.palmGuard {
            palms.insert(id)
            return []
        }
        fingersDown.insert(id)
        switch state {
        case .idle:
            if fingerDraws {
                state = .pending(id: id, started: time, points: [point])
                return []
            }
            state = .panning(id: id)
            return [.pinchBegan(center: point)]
        case .pending(let first, _, let points):
            // Two fingers so soon: a pinch, and nothing was drawn.
            return beginPinch(first, points.last ?? point, id, point, before: [])
        case .drawing(let first):
            return beginPinch(first, nil, id, point, before: [.cancel])
        case .panning(let first):
            return beginPinch(first, nil, id, point, before: [.pinchEnded])
        case .pinching, .ignoring, .pen:
            return []
        }
    }

    private var lastPoint: [Int: Point] = [:]

    private mutating func beginPinch(_ first: Int, _ firstAt: Point?, _ second: Int, _ secondAt: Point,
                                     before: [CanvasEvent]) -> [CanvasEvent] {
        let a = firstAt ?? lastPoint[first] ?? secondAt
        let distance = max(1, hypot(a.x - secondAt.x, a.y - secondAt.y))
        state = .pinching(ids: [first, second], at: [first: a, second: secondAt], startDistance: distance)
        return before + [.pinchBegan(center: Point((a.x + secondAt.x) / 2, (a.y + secondAt.y) / 2))]
    }

    private mutating func moved(_ id: Int, _ points: [Point], _ time: Double) -> [CanvasEvent] {
        guard let last = points.last, !palms.contains(id) else { return [] }
        lastPoint[id] = last
        switch state {
        case .pending(let p, let started, let held) where p == id:
            let all = held + points
            guard time - started >= Self.holdBack else {
                state = .pending(id: p, started: started, points: all)
                return []
            }
            state = .drawing(id: id)
            return [.press(all[0], eraserTip: false), .motion(Array(all.dropFirst()))]
        case .drawing(let d) where d == id, .pen(let d) where d == id:
            return [.motion(points)]
        case .panning(let p) where p == id:
            return [.pinchChanged(scale: 1, center: last)]
        case .pinching(let ids, var at, let startDistance) where ids.contains(id):
            at[id] = last
            state = .pinching(ids: ids, at: at, startDistance: startDistance)
            guard let a = at[ids[0]], let b = at[ids[1]] else { return [] }
            return [.pinchChanged(scale: max(1, hypot(a.x - b.x, a.y - b.y)) / startDistance,
                                  center: Point((a.x + b.x) / 2, (a.y + b.y) / 2))]
        default:
            return []
        }
    }

    private mutating func up(_ id: Int, _ point: Point) -> [CanvasEvent] {
        lastPoint[id] = nil
        if palms.remove(id) != nil { return [] }
        fingersDown.remove(id)
        defer { if fingersDown.isEmpty, case .ignoring = state { state = .idle } }
        switch state {
        case .pending(let p, _, let held) where p == id:
            // A tap, or a short line drawn quickly: drawn after all.
            state = .idle
            return [.press(held[0], eraserTip: false), .motion(Array(held.dropFirst())), .release(point)]
        case .drawing(let d) where d == id, .pen(let d) where d == id:
            state = .idle
            return [.release(point)]
        case .panning(let p) where p == id:
            state = .idle
            return [.pinchEnded]
        case .pinching(let ids, _, _) where ids.contains(id):
            // The other finger stays down: it neither draws nor pans.
            state = fingersDown.isEmpty ? .idle : .ignoring
            return [.pinchEnded]
        default:
            return []
        }
    }
}
