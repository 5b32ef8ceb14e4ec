import CGtk
import Foundation
import LearnModel
import TeamsketchCore

/// The class wall: every team sketch running nearby, live, side by side, for
/// the projector. Which groups and in what state is `ClassWall`'s decision
/// and the grid's shape `WallLayout`'s; this joins each group as a watcher
/// (`WallCell`), places the cells and shows one big on a click. It lives in
/// a window of its own (`TeacherDoor.showClassWall`).
@MainActor
final class ClassWallView {
    let widget: Widget
    private let grid: Widget
    /// The space the grid may take; the grid is as tall as its sheets.
    private let area: Widget
    private let summary: Widget
    private let allGroups: Widget
    private let fullscreen: Widget
    private weak var nav: (any Navigator)?
    private let discovery: DiscoveryService
    /// Where the groups' sketches are kept (nil: this computer has no store).
    private let sessions: LanSessions
    private let keepSharedSketch: SharedSketchKeeper.Make
    private let watcherName: String
    private var wall = ClassWall()
    private var cells: [String: WallCell] = [:]
    /// Where each cell sits now, so a relayout moves only what must move.
    private var placed: [String: (row: Int, column: Int)] = [:]
    private var layout: WallLayout?
    private var size: (width: Int32, height: Int32) = (0, 0)
    /// The group shown big, if one was clicked.
    private var big: String?
    private var running = true
    /// The signed-in teacher's classes, once the server has told them.
    private var classes: Set<ClassTag>?
    /// Their keys for watching (`WatchProof`), by class.
    private var keys: [ClassTag: [UInt8]] = [:]
    /// The signed-in teacher's classes are being asked for: no group is
    /// joined before (for 10 s at most), or it would join without its
    /// class's proof.
    private var awaitingClasses = false

    /// `office`: the signed-in teacher's, whose classes' groups the wall
    /// shows (nil: nobody is signed in as a teacher, every group nearby);
    /// `close` closes the wall's window.
    init(nav: any Navigator, discovery: DiscoveryService, sessions: LanSessions,
         keepSharedSketch: @escaping SharedSketchKeeper.Make, office: SchoolOffice?,
         watcherName: String, close: @escaping @MainActor () -> Void) {
        self.nav = nav
        self.discovery = discovery
        self.sessions = sessions
        self.keepSharedSketch = keepSharedSketch
        self.watcherName = watcherName
        widget = UI.box(GTK_ORIENTATION_VERTICAL, spacing: 8)
        gtk_widget_set_margin_top(widget, 8)
        gtk_widget_set_margin_start(widget, 12)
        gtk_widget_set_margin_end(widget, 12)
        gtk_widget_set_margin_bottom(widget, 12)
        summary = UI.label("", classes: ["hint"])
        gtk_label_set_xalign(ts_label(summary), 0)
        gtk_widget_set_hexpand(summary, 1)
        allGroups = UI.button(`_`("All groups"), icon: "view-grid-symbolic", classes: ["choice"]) {}
        fullscreen = UI.button(`_`("Full screen"), icon: "view-fullscreen-symbolic", classes: ["choice"]) {}
        let close = UI.button(`_`("Close"), icon: "window-close-symbolic", classes: ["choice"]) {
            close()
        }
        let title = UI.label(`_`("Class wall"), classes: ["home-title"])
        let bar = UI.box(GTK_ORIENTATION_HORIZONTAL, spacing: 18, [title, summary, allGroups, fullscreen, close])
        grid = gtk_grid_new()!
        gtk_grid_set_row_homogeneous(ts_grid(grid), 1)
        gtk_grid_set_column_homogeneous(ts_grid(grid), 1)
        gtk_grid_set_row_spacing(ts_grid(grid), 12)
        gtk_grid_set_column_spacing(ts_grid(grid), 12)
        // Cells as tall as their sheets, the grid centred: no grey bands
        // above and below each group.
        UI.expand(grid)
        gtk_widget_set_valign(grid, GTK_ALIGN_CENTER)
        area = UI.box(GTK_ORIENTATION_VERTICAL, spacing: 0, [grid])
        UI.expand(area)
        gtk_label_set_wrap(ts_label(title), 0)
        UI.append(widget, bar)
        UI.append(widget, area)
        gtk_widget_set_visible(allGroups, 0)
        Signal.connect(UI.raw(allGroups), "clicked") { [weak self] in self?.showAll() }
        Signal.connect(UI.raw(fullscreen), "clicked") { [weak self] in self?.toggleFullscreen() }

        FrameTimeLog.attach(to: grid, label: "wall")
        if let office {
            // Only the teacher's own classes' groups, joined once their keys
            // are known too, so those groups let the wall in at once. A
            // server out of reach: every group, each host asked; a slow one
            // is waited for 10 s, then groups are joined as they are (and
            // wait for their hosts: a group is not joined again).
            awaitingClasses = true
            Task { @MainActor [weak self] in
                try? await Task.sleep(for: .seconds(10))
                guard let self, self.awaitingClasses else { return }
                self.awaitingClasses = false
                self.refresh()
            }
            Task { @MainActor [weak self] in
                let list = await (try? office.classes(false))
                guard let self else { return }
                self.awaitingClasses = false
                if let list {
                    self.classes = Set(list.map { ClassTag(class: $0.id) })
                    self.keys = Dictionary(list.compactMap { c in
                        c.watchKey.flatMap(WatchProof.key(hex:)).map { (ClassTag(class: c.id), $0) }
                    }, uniquingKeysWith: { a, _ in a })
                }
                self.refresh()
            }
        }
        discovery.onChange = { [weak self] in self?.refresh() }
        discovery.start()
        refresh()
        // The grid's shape follows the space it has (a window resized, full screen).
        runEvery(ms: 300) { [weak self] in
            guard let self, self.running else { return false }
            self.arrange()
            return true
        }
    }

    isolated deinit {
        stop()
    }

    /// Leaves every group and stops looking for more.
    func stop() {
        guard running else { return }
        running = false
        for cell in cells.values { cell.leave() }
        discovery.onChange = nil
        discovery.stop()
    }

    private func refresh() {
        guard running else { return }
        guard !awaitingClasses else { return update() }
        let before = Set(wall.groups.map(\.id))
        let added = wall.found(discovery.sessions, classes: classes)
        for gone in before.subtracting(wall.groups.map(\.id)) { remove(gone) }
        for group in added { add(group) }
        update()
    }

    private func add(_ group: ClassWall.Group) {
        guard let nav else { return }
        let cell = WallCell(group: group, nav: nav, sessions: sessions, keepSharedSketch: keepSharedSketch)
        cells[group.id] = cell
        cell.onEvent = { [weak self] event in
            guard let self else { return }
            self.wall.apply(event, to: group.id)
            self.update()
        }
        let click = gtk_gesture_click_new()!
        // Captured before the sheet sees it: a click on a group shows it big.
        gtk_event_controller_set_propagation_phase(ts_controller(gp(click)), GTK_PHASE_CAPTURE)
        Signal.connectClick(gp(click), "released") { [weak self] _, _, _ in self?.toggleBig(group.id) }
        gtk_widget_add_controller(cell.widget, ts_controller(gp(click)))
        let name = watcherName, keys = keys
        Task { @MainActor [weak self, weak cell] in
            do {
                try await cell?.watch(group, as: name, keys: keys)
            } catch {
                self?.wall.unreachable(group.id)
                self?.update()
            }
        }
    }

    private func remove(_ id: String) {
        guard let cell = cells.removeValue(forKey: id) else { return }
        cell.leave()
        if placed.removeValue(forKey: id) != nil { gtk_grid_remove(ts_grid(grid), cell.widget) }
        if big == id { big = nil }
        layout = nil
    }

    /// Cells' words and the line above the grid.
    private func update() {
        for group in wall.groups { cells[group.id]?.show(group) }
        let live = wall.groups.filter { $0.status == .watching }.count
        UI.setText(summary, wall.groups.isEmpty
            ? `_`("Looking for groups drawing nearby… Every team sketch that starts shows here.")
            : String(format: `_`("Groups drawing: %d"), live))
        arrange()
    }

    private func toggleBig(_ id: String) {
        big = big == id ? nil : id
        layout = nil
        arrange()
    }

    private func showAll() {
        big = nil
        layout = nil
        arrange()
    }

    /// Escape steps back as a projector's viewer expects: from one group
    /// to all of them, then out of full screen. On the wall's window, so it
    /// works wherever the keyboard is (after "All groups" hid itself, on
    /// nothing at all).
    func attachKeys(to window: Widget) {
        let keys = gtk_event_controller_key_new()!
        gtk_event_controller_set_propagation_phase(keys, GTK_PHASE_CAPTURE)
        Signal.connectKey(UnsafeMutableRawPointer(keys), "key-pressed") { [weak self] keyval, _ in
            guard let self, Int32(bitPattern: keyval) == GDK_KEY_Escape else { return false }
            return self.stepBack()
        }
        gtk_widget_add_controller(window, keys)
    }

    /// True when Escape did something.
    private func stepBack() -> Bool {
        if big != nil {
            showAll()
            return true
        }
        guard let root = gtk_widget_get_root(widget) else { return false }
        let window = ts_window(UnsafeMutableRawPointer(root))
        guard gtk_window_is_fullscreen(window) != 0 else { return false }
        gtk_window_unfullscreen(window)
        return true
    }

    /// The wall's own window, so it can go full screen on the projector.
    private func toggleFullscreen() {
        guard let root = gtk_widget_get_root(widget) else { return }
        let window = ts_window(UnsafeMutableRawPointer(root))
        if gtk_window_is_fullscreen(window) != 0 { gtk_window_unfullscreen(window) } else { gtk_window_fullscreen(window) }
    }

    /// Puts the cells where the layout says; one group shown big fills the grid.
    private func arrange() {
        let ids = big.map { [$0] } ?? wall.groups.map(\.id)
        let width = gtk_widget_get_width(area), height = gtk_widget_get_height(area)
        let aspect = SketchMeta(name: "").width / SketchMeta(name: "").height
        let next = WallLayout.best(count: ids.count, width: Double(width), height: Double(height), sheetAspect: aspect)
        gtk_widget_set_visible(allGroups, big == nil ? 0 : 1)
        guard next != layout || (width, height) != size || ids.count != placed.count else { return }
        layout = next
        size = (width, height)
        let sheetHeight = next.sheetHeight(width: Double(width), height: Double(height), sheetAspect: aspect)
        let sheetWidth = sheetHeight * aspect
        for cell in cells.values { cell.setSheetSize(width: Int32(max(64, sheetWidth)), height: Int32(max(48, sheetHeight))) }
        for (id, _) in placed where !ids.contains(id) {
            if let cell = cells[id] { gtk_grid_remove(ts_grid(grid), cell.widget) }
            placed[id] = nil
        }
        for (i, id) in ids.enumerated() {
            guard let cell = cells[id] else { continue }
            let at = next.place(i)
            if let was = placed[id], was == at { continue }
            if placed[id] != nil { gtk_grid_remove(ts_grid(grid), cell.widget) }
            gtk_grid_attach(ts_grid(grid), cell.widget, Int32(at.column), Int32(at.row), 1, 1)
            placed[id] = at
        }
    }
}
