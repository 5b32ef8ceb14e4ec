import CGtk
import Foundation
import LearnModel
import TeamsketchCore

/// The sketch screen: a top bar (back, name, clock, export), the canvas, and a
/// bottom bar with the felt pens, the width switch and the eraser — where a
/// child's hand rests on a touch screen.
@MainActor
final class CanvasScreen {
    let widget: Widget
    let canvas: CanvasView
    private weak var nav: (any Navigator)?
    private let files: SketchFileClient
    private var penButtons: [PenColor: Widget] = [:]
    private var widthButtons: [PenWidth: Widget] = [:]
    private var eraserButton: Widget?
    private var clockLabel: Widget?
    private let banner: Widget
    /// On the host's sheet: who asks to come in after the start (a late
    /// painter, the teacher's class wall), to let in or send away.
    private let requests: Widget
    private var closed = false

    private let session: SketchSession?
    /// Where this sketch is saved (nil only without any store). Alone it
    /// stores each op; shared, the session stores the ops it applies and
    /// this screen only keeps the thumbnail.
    private let saver: SketchSaver?
    private let permissions: SketchPermissions
    private var title: Widget?

    /// `settings` and `author`: the device's classroom settings and the
    /// pupil's name, for a sketch drawn alone; `keptCopy`: where a copy kept
    /// of this sketch (deleted elsewhere while open) is told of.
    init(nav: any Navigator, files: SketchFileClient, settings: ClassroomSettings, author: String,
         document: SketchDocument, saver: SketchSaver?, session: SketchSession? = nil,
         keptCopy: @escaping @MainActor (KeptCopy) -> Void) {
        self.nav = nav
        self.files = files
        self.session = session
        self.saver = saver
        permissions = session.map {
            SketchPermissions.shared(isHost: $0.room.isHost, role: $0.role, session: $0.room.lobby?.settings)
        } ?? .solo(settings)
        // Solo or shared, strokes drawn here carry the pupil's one name (in a
        // session as the host lists it, so "my strokes" match the host's).
        canvas = CanvasView(document: document, author: session?.nameInSession ?? author,
                            permissions: permissions, session: session)
        canvas.arbiter.fingerDraws = settings.fingerDraws
        banner = UI.label("", classes: ["banner"])
        requests = UI.box(GTK_ORIENTATION_VERTICAL, spacing: 6, classes: ["join-requests"])
        widget = UI.box(GTK_ORIENTATION_VERTICAL, spacing: 0)

        UI.append(widget, topBar(document.meta))
        let overlay = gtk_overlay_new()!
        gtk_overlay_set_child(ts_overlay(overlay), canvas.widget)
        gtk_widget_set_halign(banner, GTK_ALIGN_CENTER)
        gtk_widget_set_valign(banner, GTK_ALIGN_START)
        gtk_widget_set_margin_top(banner, 12)
        gtk_widget_set_visible(banner, 0)
        gtk_widget_set_can_target(banner, 0)
        gtk_overlay_add_overlay(ts_overlay(overlay), banner)
        gtk_widget_set_halign(requests, GTK_ALIGN_END)
        gtk_widget_set_valign(requests, GTK_ALIGN_START)
        gtk_widget_set_margin_top(requests, 12)
        gtk_widget_set_margin_end(requests, 12)
        gtk_widget_set_visible(requests, 0)
        gtk_overlay_add_overlay(ts_overlay(overlay), requests)
        UI.expand(overlay)
        UI.append(widget, overlay)
        if permissions.mayDraw { UI.append(widget, bottomBar()) }

        canvas.onOp = { [weak self] op in self?.persist(op) }
        if let session, session.room.isHost {
            session.room.onLobby = { [weak self] lobby in self?.showRequests(lobby) }
            if let lobby = session.room.lobby { showRequests(lobby) }
        }
        installShortcuts()
        selectPen(.black)
        selectWidth(.fine)
        let limit = document.meta.timeLimitMinutes
        let deadline = session != nil ? session?.sessionDeadline
            : limit > 0 ? document.meta.createdAt.addingTimeInterval(Double(limit) * 60) : nil
        startClock(deadline)
        runEvery(ms: 5000) { [weak self] in
            guard let self, !self.closed else { return false }
            // Strokes a full or read-only disk refused wait in the saver; they
            // are stored as soon as it has room again, even if nobody draws.
            if let failure = self.saver?.retry() { self.nav?.reportSaveFailure(failure) }
            self.persistThumbnail()
            return true
        }
        // Deleted here while open: the saver went on in a copy; say so.
        saver?.onKeptCopy = keptCopy
    }

    func close() {
        guard !closed else { return }
        persistThumbnail()
        closed = true
        canvas.teardown()
    }

    /// Joiners still waiting once drawing has begun: without this they
    /// would wait for a lobby screen that is gone.
    private func showRequests(_ lobby: Lobby) {
        guard let session else { return }
        UI.clear(requests)
        let waiting = lobby.members.filter { $0.index != 0 && $0.state == .pending }
        for m in waiting {
            let index = m.index
            UI.append(requests, MemberRow.make(m, avatar: session.room.avatar(of: index),
                                               accept: { [weak session] in session?.room.accept(index) },
                                               decline: { [weak session] in session?.room.decline(index) }))
        }
        gtk_widget_set_visible(requests, waiting.isEmpty ? 0 : 1)
    }

    /// The sketch open here was deleted on another device and what this
    /// device held of it was kept as a copy: drawing goes on in the copy,
    /// under the copy's name (a session's too: its host keeps the sketch).
    func follow(_ kept: KeptCopy) {
        guard let saver else { return }
        if saver.sketchID == kept.originalID, let failure = saver.follow(kept) { nav?.reportSaveFailure(failure) }
        if saver.sketchID == kept.copyID, let title { gtk_label_set_text(ts_label(title), kept.copy) }
    }

    // MARK: bars

    private func topBar(_ meta: SketchMeta) -> Widget {
        let bar = UI.box(GTK_ORIENTATION_HORIZONTAL, spacing: 12, classes: ["toolbar"])
        UI.append(bar, UI.iconButton("go-home-symbolic", tooltip: `_`("Back to the start"), classes: ["tool"]) {
            [weak self] in self?.leave()
        })
        let title = UI.label(meta.name, classes: ["sketch-title"])
        self.title = title
        gtk_label_set_ellipsize(ts_label(title), PANGO_ELLIPSIZE_END)
        gtk_widget_set_hexpand(title, 1)
        gtk_label_set_xalign(ts_label(title), 0)
        UI.append(bar, title)
        if let nav {
            let permissions = permissions
            UI.append(bar, PictureHelp.button(nav: nav, name: "sketch") { ScreenHelp.sketch(permissions) })
        }
        UI.append(bar, UI.iconButton("zoom-out-symbolic", tooltip: `_`("Zoom out"), classes: ["tool"]) {
            [weak self] in self.map { $0.canvas.setZoom($0.canvas.viewport.zoom / 1.5) }
        })
        UI.append(bar, UI.iconButton("zoom-in-symbolic", tooltip: `_`("Zoom in"), classes: ["tool"]) {
            [weak self] in self.map { $0.canvas.setZoom($0.canvas.viewport.zoom * 1.5) }
        })
        UI.append(bar, UI.iconButton("document-save-as-symbolic", tooltip: `_`("Export as picture or document"), classes: ["tool"]) {
            [weak self] in self?.export()
        })
        if permissions.mayClear {
            UI.append(bar, UI.iconButton("edit-clear-all-symbolic", tooltip: `_`("Clear the sheet for everyone"), classes: ["tool"]) {
                [weak self] in self?.confirmClear()
            })
        }
        if meta.timeLimitMinutes > 0 {
            let clock = UI.label("", classes: ["clock"])
            UI.accessibleLabel(clock, `_`("Time left"))
            clockLabel = clock
            UI.append(bar, clock)
        }
        return bar
    }

    private func bottomBar() -> Widget {
        let bar = UI.box(GTK_ORIENTATION_HORIZONTAL, spacing: 4, classes: ["toolbar"])
        gtk_widget_set_halign(bar, GTK_ALIGN_FILL)
        ignoreRestingHands(on: bar)
        let pens = UI.box(GTK_ORIENTATION_HORIZONTAL, spacing: 2)
        gtk_widget_set_valign(pens, GTK_ALIGN_CENTER)
        for color in PenColor.allCases {
            let b = PenButton.make(color) { [weak self] in self?.selectPen(color) }
            penButtons[color] = b
            UI.append(pens, b)
        }
        UI.append(bar, pens)
        let spacer = UI.box(GTK_ORIENTATION_HORIZONTAL)
        gtk_widget_set_hexpand(spacer, 1)
        UI.append(bar, spacer)
        for (w, title) in [(PenWidth.fine, `_`("Fine")), (.broad, `_`("Broad"))] {
            let b = gtk_toggle_button_new()!
            gtk_button_set_child(ts_button(b), WidthIcon.make(width: w))
            UI.style(b, ["tool"])
            gtk_widget_set_tooltip_text(b, title)
            UI.accessibleLabel(b, title)
            Signal.connect(UI.raw(b), "clicked") { [weak self] in self?.selectWidth(w) }
            widthButtons[w] = b
            UI.append(bar, b)
        }
        if permissions.mayUndo {
            let undo = tool(gtk_button_new()!, icon: "edit-undo-symbolic", title: `_`("Take back what I did last"))
            Signal.connect(UI.raw(undo), "clicked") { [weak self] in self?.canvas.undoOwnStroke() }
            UI.append(bar, undo)
        }
        guard permissions.mayErase else { return bar }
        let eraser = tool(gtk_toggle_button_new()!, icon: "edit-clear-symbolic", title: `_`("Eraser"))
        Signal.connect(UI.raw(eraser), "clicked") { [weak self] in
            guard let self else { return }
            self.canvas.tool = gtk_toggle_button_get_active(ts_toggle(eraser)) != 0 ? .eraser : .pen
            self.refreshTools()
        }
        eraserButton = eraser
        UI.append(bar, eraser)
        return bar
    }

    /// A hand resting on the bar while the sheet is drawn on picks nothing
    /// (`TouchArbiter.toolTouchIsAHand`): the bar takes such a touch before
    /// its buttons see it.
    private func ignoreRestingHands(on bar: Widget) {
        let hand = gtk_gesture_click_new()!
        gtk_gesture_single_set_touch_only(ts_gesture_single(gp(hand)), 1)
        gtk_event_controller_set_propagation_phase(ts_controller(gp(hand)), GTK_PHASE_CAPTURE)
        Signal.connectClick(gp(hand), "pressed") { [weak self] _, _, _ in
            let time = Double(gtk_event_controller_get_current_event_time(ts_controller(gp(hand)))) / 1000
            let isHand = self?.canvas.arbiter.toolTouchIsAHand(at: time) ?? false
            gtk_gesture_set_state(ts_gesture(gp(hand)), isHand ? GTK_EVENT_SEQUENCE_CLAIMED : GTK_EVENT_SEQUENCE_DENIED)
        }
        gtk_widget_add_controller(bar, ts_controller(gp(hand)))
    }

    /// A bar button with a big icon, named for its tooltip and screen readers.
    private func tool(_ button: Widget, icon: String, title: String) -> Widget {
        let image = gtk_image_new_from_icon_name(icon)!
        gtk_image_set_pixel_size(ts_image(image), 32)
        gtk_button_set_child(ts_button(button), image)
        UI.style(button, ["tool"])
        gtk_widget_set_tooltip_text(button, title)
        UI.accessibleLabel(button, title)
        return button
    }

    private func selectPen(_ color: PenColor) {
        canvas.pen.color = color
        canvas.tool = .pen
        refreshTools()
    }

    private func selectWidth(_ width: PenWidth) {
        canvas.pen.width = width
        refreshTools()
    }

    /// The active pen is drawn bigger; toggles mirror the canvas state.
    private func refreshTools() {
        for (color, b) in penButtons { UI.setClass(b, "active", canvas.tool == .pen && color == canvas.pen.color) }
        for (w, b) in widthButtons { gtk_toggle_button_set_active(ts_toggle(b), w == canvas.pen.width ? 1 : 0) }
        if let eraserButton { gtk_toggle_button_set_active(ts_toggle(eraserButton), canvas.tool == .eraser ? 1 : 0) }
    }

    /// Everything works from the keyboard too: 1–9, 0, -, = pick the twelve pens in palette
    /// order; F/B fine and broad; E eraser; Ctrl+Z take back my last line;
    /// Ctrl+plus/minus/0 zoom; Ctrl+S export.
    private func installShortcuts() {
        let keys = gtk_event_controller_key_new()!
        gtk_event_controller_set_propagation_phase(keys, GTK_PHASE_CAPTURE)
        let penKeys = "1234567890-="
        Signal.connectKey(UnsafeMutableRawPointer(keys), "key-pressed") { [weak self] keyval, state in
            guard let self else { return false }
            let ctrl = state.rawValue & GDK_CONTROL_MASK.rawValue != 0
            guard let scalar = Unicode.Scalar(gdk_keyval_to_unicode(keyval)) else { return false }
            let ch = Character(scalar)
            if ctrl {
                switch ch {
                case "+", "=": self.canvas.setZoom(self.canvas.viewport.zoom * 1.5)
                case "-": self.canvas.setZoom(self.canvas.viewport.zoom / 1.5)
                case "0": self.canvas.setZoom(1)
                case "s", "S": self.export()
                case "z", "Z":
                    guard self.canvas.mayUndo else { return false }
                    self.canvas.undoOwnStroke()
                default: return false
                }
                return true
            }
            if let i = penKeys.firstIndex(of: ch) {
                self.selectPen(PenColor.allCases[penKeys.distance(from: penKeys.startIndex, to: i)])
                return true
            }
            switch ch {
            case "f", "F": self.selectWidth(.fine)
            case "b", "B": self.selectWidth(.broad)
            case "e", "E":
                guard self.canvas.mayErase else { return false }
                self.canvas.tool = self.canvas.tool == .eraser ? .pen : .eraser
                self.refreshTools()
            default: return false
            }
            return true
        }
        gtk_widget_add_controller(widget, keys)
    }

    // MARK: time limit

    private func startClock(_ deadline: Date?) {
        guard let deadline, let clock = clockLabel else { return }
        let tick: @MainActor () -> Bool = { [weak self] in
            guard let self, !self.closed else { return false }
            let left = TimeLeft.seconds(until: deadline)
            UI.setText(clock, String(format: "%d:%02d", left / 60, left % 60))
            UI.setClass(clock, "urgent", left < 60)
            if left == 0 {
                self.canvas.drawingEnabled = false
                self.showBanner(`_`("Time is up! Your sketch is saved."))
                return false
            }
            return true
        }
        if tick() { runEvery(ms: 1000, tick) }
    }

    // MARK: session

    func sessionReset(_ doc: SketchDocument, live: [LiveStroke]) {
        canvas.reset(to: doc, live: live)
        gtk_widget_set_visible(banner, 0)
        saver?.markChanged()
    }

    func sessionEnded(_ reason: EndReason) {
        canvas.drawingEnabled = false
        saver?.markChanged()
        persistThumbnail()
        showBanner(SketchLobbyUI().wording.text(for: reason))
    }

    func showNotice(_ text: String) { showBanner(text, seconds: 4) }

    private func leave() {
        guard let session, session.room.link != nil, session.room.ended == nil else {
            nav?.showHome()
            return
        }
        let question = session.room.isHost ? `_`("End the session for everyone?") : `_`("Leave the session?")
        Alert.show(parent: nav?.window, title: question,
                   message: `_`("The sketch stays saved on this device."), choices: [
                    .init(session.room.isHost ? `_`("End") : `_`("Leave"), classes: ["destructive-action"]) { [weak self] in
                        Task { @MainActor in
                            await session.finish()
                            self?.nav?.showHome()
                        }
                    },
                    .init(`_`("Keep drawing"), classes: ["suggested-action"]),
                   ])
    }

    private func confirmClear() {
        Alert.show(parent: nav?.window, title: `_`("Clear the sheet for everyone?"),
                   message: `_`("All strokes disappear from every screen. The replay keeps them."), choices: [
                    .init(`_`("Clear"), classes: ["destructive-action"]) { [weak self] in self?.session?.clear() },
                    .init(`_`("Cancel"), classes: ["suggested-action"]),
                   ])
    }

    private func showBanner(_ text: String, seconds: UInt32? = nil) {
        UI.setText(banner, text)
        gtk_widget_set_visible(banner, 1)
        if let seconds {
            runAfter(ms: seconds * 1000) { [weak self] in
                guard let self, !self.closed else { return }
                gtk_widget_set_visible(self.banner, 0)
            }
        }
    }

    // MARK: persistence

    private func persist(_ op: SketchOp) {
        guard let saver else { return }
        guard session == nil else { return saver.markChanged() }
        // The drawing goes on in memory; the saver reports only its first failure.
        if let failure = saver.append(op) { nav?.reportSaveFailure(failure) }
    }

    func persistThumbnail() {
        guard !closed else { return }
        saver?.saveThumbnail(of: canvas.document)
    }

    // MARK: export

    private func export() {
        FileChooser.ask(parent: nav?.window, title: `_`("Export sketch"), save: true, acceptLabel: `_`("Export"),
                        suggestedName: canvas.document.meta.name + ".png", filters: [
                            .init(name: `_`("PNG picture"), patterns: ["*.png"]),
                            .init(name: `_`("PDF document"), patterns: ["*.pdf"]),
                            .init(name: `_`("SVG drawing"), patterns: ["*.svg"]),
                            .init(name: `_`("Xournal++ notebook"), patterns: ["*.xopp"]),
                        ]) { [weak self] path in
            guard let self else { return }
            do {
                try self.files.write(self.canvas.document, path)
                self.showBanner(String(format: `_`("Saved as %@"), (path as NSString).lastPathComponent), seconds: 4)
            } catch {
                self.nav?.showError(`_`("The sketch could not be exported."), error)
            }
        }
    }
}
