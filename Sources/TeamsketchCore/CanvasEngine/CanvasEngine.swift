import Foundation
import LearnModel
import LearnRender

/// The canvas without a window: pen, eraser, zoom and the LAN session's ink
/// go in as `CanvasEvent`s; ink for the tiles, ops to store, session intents
/// and timer requests come out as `CanvasEffect`s. The view translates the
/// toolkit's events, carries out the effects and paints; every rule of the
/// canvas lives here, where tests drive it with the same sequences a pupil's
/// hand makes.
public struct CanvasEngine: Sendable {
    public internal(set) var document: SketchDocument
    public internal(set) var viewport: Viewport
    public private(set) var deviceScale = 1.0
    public internal(set) var tiles = TilePlanner()
    public var pen = Pen(color: .black, width: .fine)
    /// The chosen tool. Choosing the eraser where erasing is not allowed
    /// leaves the pen in hand, whichever button or key asked for it.
    public var tool: CanvasTool = .pen {
        didSet { if tool == .eraser && !mayErase { tool = .pen } }
    }
    /// What this pupil may do here (the host's or the classroom's settings).
    public let permissions: SketchPermissions
    public var author: String
    /// In a LAN session own strokes stream out while drawn and enter the
    /// document only when the host has ordered them (`.sharedOpApplied`).
    public let isShared: Bool
    public internal(set) var drawingEnabled = true
    /// Two fingers are zooming: touches do not draw.
    public var isPinching: Bool { pinching }
    /// Changes whenever finished ink changes, so the minimap is redrawn then
    /// and not on every frame.
    public internal(set) var minimapGeneration = 0

    var builder: StrokeBuilder?
    var strokeTool: CanvasTool = .pen
    var lastEraserPoint: Point?
    var pointer = Point(0, 0)
    var pinching = false
    var pinchStartZoom = 1.0
    var pinchLastCenter: Point?
    var settleGeneration = 0
    /// Other people's strokes being drawn right now.
    var remote: [UUID: RemoteInk] = [:]
    var remoteBegun = 0
    /// Own shared strokes finished here but not yet ordered by the host: on
    /// the tiles already, in the document not yet.
    var awaitingHost: [UUID: Stroke] = [:]
    /// What this pupil did, newest last, for undo (`CanvasEngine+Undo`).
    var undoSteps: [UndoStep] = []
    /// The eraser is down: what it takes joins the step it started.
    var erasingStep = false
    var effects: [CanvasEffect] = []

    /// Whether any input may erase here: the eraser tool and a stylus's
    /// eraser end alike.
    public var mayErase: Bool { permissions.mayErase }

    /// Radius of the eraser in canvas units.
    public static let eraserRadius = 14.0
    /// How long a zoom must rest before the tiles are drawn again at the new scale.
    public static let settleDelayMS: UInt32 = 160
    /// Pen moves shorter than this (widget pixels) add nothing.
    public static let minimumMove = 0.3

    public init(document: SketchDocument, author: String, isShared: Bool = false,
                permissions: SketchPermissions = .solo(.defaults)) {
        self.document = document
        self.author = author
        self.isShared = isShared
        self.permissions = permissions
        drawingEnabled = permissions.mayDraw
        viewport = Viewport(canvasWidth: document.meta.width, canvasHeight: document.meta.height)
    }

    /// The effects of the events handled since the last call, in order.
    public mutating func takeEffects() -> [CanvasEffect] {
        defer { effects = [] }
        return effects
    }

    /// Handles one event; true when it was used (the toolkit then stops
    /// offering it to others).
    @discardableResult
    public mutating func handle(_ event: CanvasEvent) -> Bool {
        switch event {
        case let .resize(width, height, scale):
            guard width != viewport.widgetWidth || height != viewport.widgetHeight || scale != deviceScale else {
                return true
            }
            viewport.resize(width: width, height: height)
            deviceScale = scale
            if tiles.scale != nil { scheduleSettle() }
        case let .press(p, eraserTip):
            return press(at: p, eraserTip: eraserTip)
        case .motion(let points):
            guard let last = points.last else { return false }
            pointer = last
            guard builder != nil || lastEraserPoint != nil else {
                if tool == .eraser { emit(.invalidate) }
                return false
            }
            for p in points { move(to: p) }
        case .release(let p):
            pointer = p
            guard builder != nil || lastEraserPoint != nil else { return false }
            move(to: p)
            finishStroke()
        case .cancel:
            cancelStroke()
        case .undoOwnStroke:
            return undo()
        case .hover(let p):
            pointer = p
            return false
        case let .zoom(zoom, anchor):
            setZoom(zoom, anchor: anchor)
        case .pinchBegan(let center):
            cancelStroke()
            pinching = true
            pinchStartZoom = viewport.zoom
            pinchLastCenter = center
        case let .pinchChanged(scale, center):
            let c = center ?? pointer
            if let last = pinchLastCenter { viewport.scroll(dx: last.x - c.x, dy: last.y - c.y) }
            pinchLastCenter = c
            setZoom(pinchStartZoom * scale, anchor: c)
        case .pinchEnded:
            pinching = false
            scheduleSettle()
        case let .wheel(dx, dy, control):
            if control {
                setZoom(viewport.zoom * exp(-dy * 0.15), anchor: pointer)
            } else if viewport.isZoomed {
                viewport.scroll(dx: dx * 40, dy: dy * 40)
                emit(.invalidate)
            } else {
                return false
            }
        case .settle(let generation):
            guard generation == settleGeneration, !pinching else { return true }
            let changes = tiles.settle(frame)
            effects += changes
            if !changes.isEmpty { emit(.invalidate) }
        case .frame:
            effects += tiles.frame(frame)
        case .idle:
            let changes = tiles.idle(frame)
            effects += changes
            if changes.contains(where: { if case .render = $0 { true } else { false } }) { emit(.invalidate) }
        case .drawingEnabled(let on):
            drawingEnabled = on && permissions.mayDraw
            if !drawingEnabled { cancelStroke() }
        case .remoteBegan(let live):
            remoteBegun += 1
            remote[live.id] = RemoteInk(color: live.color, width: live.width, start: live.start, order: remoteBegun)
            remoteExtended(live.id, firstIndex: 0, segments: live.cubicSegments)
        case let .remoteExtended(id, first, segments):
            remoteExtended(id, firstIndex: first, segments: segments)
        case let .sharedOpApplied(op, isOwn):
            sharedOpApplied(op, isOwn: isOwn)
        case let .reset(doc, live):
            document = doc
            remote = [:]
            awaitingHost = [:]
            effects += tiles.forgetAll()
            minimapGeneration += 1
            for l in live { handle(.remoteBegan(l)) }
            emit(.invalidate)
        case .ownStrokeRefused(let id):
            ownStrokeRefused(id)
        }
        return true
    }

    var frame: TilePlanner.Frame { TilePlanner.Frame(viewport: viewport, deviceScale: deviceScale) }

    mutating func emit(_ e: CanvasEffect) { effects.append(e) }

    // MARK: tiles and zoom

    mutating func ink(_ run: InkRun) {
        let damaged = tiles.damaged(by: run.bounds)
        if !damaged.isEmpty { emit(.ink(run, tiles: damaged)) }
    }

    /// Draws a canvas region of the tiles again from the document: only
    /// the erased stroke's bounds, never the whole sheet.
    mutating func redraw(_ region: Rect) {
        guard !region.isNull else { return }
        let r = region.insetBy(-2)
        let damaged = tiles.damaged(by: r)
        if !damaged.isEmpty { emit(.redraw(r, tiles: damaged)) }
        minimapGeneration += 1
    }

    private mutating func setZoom(_ zoom: Double, anchor: Point?) {
        viewport.setZoom(zoom, anchor: anchor ?? Point(viewport.widgetWidth / 2, viewport.widgetHeight / 2))
        scheduleSettle()
        emit(.invalidate)
    }

    /// While zooming, the tiles are shown stretched; once input rests for a
    /// moment they are drawn again, crisp, at the new scale.
    private mutating func scheduleSettle() {
        settleGeneration += 1
        emit(.scheduleSettle(generation: settleGeneration))
    }
}
