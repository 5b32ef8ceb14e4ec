import CGtk
import Foundation
import LearnModel
import TeamsketchCore

/// One group on the class wall: the teacher's machine watching that
/// group's team sketch (an observer: a group of the teacher's own class
/// lets it in at once, any other like any watcher), its live sheet, and a
/// line saying how it goes. The sketch is kept on this computer as it
/// grows, so the teacher finds it under Sketches to replay and grade.
@MainActor
final class WallCell {
    let id: String
    let widget: Widget
    private let body: Widget
    private let name: Widget
    private let status: Widget
    private var canvas: CanvasView?
    private var hostName: String
    /// The watched session, while watching.
    private var link: LobbyLink?
    private let sessions: LanSessions
    /// Keeps the group's sketch on this computer as it grows.
    private let keeper: SharedSketchKeeper
    /// The sketch the group draws, once it let this teacher in.
    private var sketch: SessionSketch?
    /// Whatever the session says goes to the wall's decisions too.
    var onEvent: ((SessionEvent) -> Void)?

    init(group: ClassWall.Group, nav: any Navigator, sessions: LanSessions, keepSharedSketch: SharedSketchKeeper.Make) {
        id = group.id
        hostName = group.hostName
        self.sessions = sessions
        keeper = keepSharedSketch { [weak nav] failure in nav?.reportSaveFailure(failure) }
        widget = UI.box(GTK_ORIENTATION_VERTICAL, spacing: 4, classes: ["wall-cell"])
        gtk_widget_set_hexpand(widget, 1)
        gtk_widget_set_vexpand(widget, 0)
        // The cell stays alive while the wall moves it between grid places.
        g_object_ref(UnsafeMutableRawPointer(widget))
        name = UI.label(group.hostName, classes: ["form-label"])
        gtk_label_set_ellipsize(ts_label(name), PANGO_ELLIPSIZE_END)
        gtk_label_set_xalign(ts_label(name), 0)
        gtk_widget_set_hexpand(name, 1)
        status = UI.label("", classes: ["hint"])
        gtk_label_set_ellipsize(ts_label(status), PANGO_ELLIPSIZE_END)
        let header = UI.box(GTK_ORIENTATION_HORIZONTAL, spacing: 8,
                            [SessionSignView.make(group.sign, height: 32), name, status])
        body = UI.box(GTK_ORIENTATION_VERTICAL, spacing: 0)
        gtk_widget_set_halign(body, GTK_ALIGN_CENTER)
        UI.append(widget, header)
        UI.append(widget, body)
        show(group)
    }

    isolated deinit {
        g_object_unref(UnsafeMutableRawPointer(widget))
    }

    /// Joins the group as a watcher under the teacher's name.
    /// `keys`: the teacher's classes' keys, so a group of those classes
    /// lets the wall in without asking (`ClassWall.proof`).
    func watch(_ group: ClassWall.Group, as watcherName: String, keys: [ClassTag: [UInt8]]) async throws {
        link = try await sessions.watch(group, watcherName, keys, MainActorEvents.sink { [weak self] in self?.handle($0) })
    }

    /// The wall sizes each sheet to fit its cell, centred under its name.
    func setSheetSize(width: Int32, height: Int32) {
        gtk_widget_set_size_request(body, width, height)
    }

    func leave() {
        guard let link else { return }
        self.link = nil
        Task { await link.finish() }
    }

    func show(_ group: ClassWall.Group) {
        hostName = group.hostName
        UI.setText(name, group.hostName)
        UI.setText(status, Self.words(group.status))
        UI.setClass(widget, "wall-live", group.status == .watching)
    }

    static func words(_ status: ClassWall.Status) -> String {
        switch status {
        case .connecting: `_`("Connecting…")
        case .waiting: `_`("Waiting for the group to let you watch")
        case .watching: ""
        case .reconnecting: `_`("Connection lost. Trying again…")
        case .declined: `_`("The group did not let you watch.")
        case .ended: `_`("Finished")
        case .unreachable: `_`("Not reachable")
        }
    }

    private func handle(_ event: SessionEvent) {
        switch event {
        case .lobbyChanged(let lobby):
            // The sheet's size and name come with the lobby; what is
            // kept takes the sketch's id once the group lets this teacher in.
            if canvas == nil { makeCanvas(lobby.meta(sketch: sketch?.id ?? UUID())) }
        case .accepted(_, _, let sketch):
            self.sketch = sketch
        case .started:
            if let canvas, let sketch {
                var meta = canvas.document.meta
                meta.id = sketch.id
                keeper.ensureStored(meta, of: sketch)
            }
        case .documentReset(let doc, _):
            if canvas == nil { makeCanvas(doc.meta) }
            keeper.catchUp(with: doc, of: sketch)
        case .opApplied(let op, _, _):
            keeper.append(op)
        default:
            break
        }
        canvas?.follow(event)
        onEvent?(event)
    }

    private func makeCanvas(_ meta: SketchMeta) {
        let view = CanvasView(document: SketchDocument(meta: meta), author: "", permissions: .watching)
        UI.accessibleLabel(view.widget, String(format: `_`("The sketch of %@'s group"), hostName))
        UI.clear(body)
        UI.append(body, view.widget)
        canvas = view
    }
}
