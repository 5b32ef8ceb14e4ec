import CGtk
import Foundation
import LearnModel
import LearnRender
import TeamsketchCore

/// The Buchstaben Post board: the player's word as slots, their letter tiles,
/// and teammates' trains at the edges. Tiles are dragged with mouse or finger;
/// a right letter snaps in, a wrong one springs back gently, a finished word
/// gets a burst of stars. Everything is drawn here, so drop zones can be far
/// larger than what is visible. The keyboard plays too (`BoardKeyboard`
/// decides; the board draws a frame round the chosen thing and the lifted
/// letter above it).
@MainActor
final class BoardView {
    enum Drop {
        case slot(Int)
        case teammate(UInt32)
        case nowhere
    }

    let widget: Widget
    private(set) var model = BoardModel()
    /// A tile was dropped: the screen asks the game and answers with
    /// `snap`, `springBack` or `sent`.
    var onDrop: (_ tile: Int, _ target: Drop, _ at: Point) -> Void = { _, _, _ in }
    /// Teammates were rearranged to match where people sit.
    var onTeammatesReordered: ([UInt32]) -> Void = { _ in }

    private struct Flight {
        enum Target { case slot(Int), hand(Int), train(Int) }
        var grapheme: String
        var tile: Int
        var from: Point
        var target: Target
        var start: Double
        var duration: Double
        var wobble: Bool
    }

    private var flights: [Flight] = []
    private var stars: [(center: Point, start: Double)] = []
    private var drag: (tile: Int, grapheme: String, grab: Point, at: Point)?
    private var trainDrag: (index: Int, at: Point)?
    private var ticking = false
    /// Owned by the widget; lives exactly as long as the view's widget.
    private var dragGesture: OpaquePointer?
    /// The pictures players drew of themselves, decoded once (not per
    /// frame), with the bytes they came from so a repeat costs nothing.
    private var pictures: [UInt32: (png: [UInt8], image: CairoImage)] = [:]
    private var keyboard = BoardKeyboard()

    init() {
        widget = gtk_drawing_area_new()!
        UI.expand(widget)
        UI.accessibleLabel(widget, `_`("Letters and your word"))
        gtk_widget_set_focusable(widget, 1)
        let keys = gtk_event_controller_key_new()!
        Signal.connectKey(UnsafeMutableRawPointer(keys), "key-pressed") { [weak self] keyval, state in
            self?.keyPressed(keyval, state) ?? false
        }
        gtk_widget_add_controller(widget, keys)
        // A click takes the keyboard's focus too, so typing works after it.
        let click = gtk_gesture_click_new()!
        Signal.connectClick(gp(click), "pressed") { [weak self] _, _, _ in
            guard let self else { return }
            gtk_widget_grab_focus(self.widget)
        }
        gtk_widget_add_controller(widget, ts_controller(gp(click)))
        // The frame shows only while the board has the keyboard.
        let focus = gtk_event_controller_focus_new()!
        for signal in ["enter", "leave"] {
            Signal.connect(UnsafeMutableRawPointer(focus), signal) { [weak self] in
                guard let self else { return }
                gtk_widget_queue_draw(self.widget)
            }
        }
        gtk_widget_add_controller(widget, focus)
        UI.setDrawFunc(widget) { [weak self] cr, w, h in self?.draw(cr, width: Double(w), height: Double(h)) }
        let gesture = gtk_gesture_drag_new()!
        Signal.connectPoint(gp(gesture), "drag-begin") { [weak self] x, y in self?.dragBegan(Point(x, y)) }
        Signal.connectPoint(gp(gesture), "drag-update") { [weak self] dx, dy in self?.dragMoved(dx, dy) }
        Signal.connectPoint(gp(gesture), "drag-end") { [weak self] dx, dy in self?.dragEnded(dx, dy) }
        gtk_widget_add_controller(widget, ts_controller(gp(gesture)))
        dragGesture = gesture
    }

    private var layout: BoardLayout {
        BoardLayout(width: Double(gtk_widget_get_width(widget)), height: Double(gtk_widget_get_height(widget)), model: model)
    }

    /// Players' drawn pictures by player id; each train shows its player's
    /// in the cab window, beside the name. Bytes that fail `AvatarPNG`'s
    /// checks or do not decode leave the letter badge.
    func setPictures(_ pngs: [UInt32: [UInt8]]) {
        var changed = false
        for (id, png) in pngs where pictures[id]?.png != png {
            guard let image = Avatar.image(png) else { continue }
            pictures[id] = (png, image)
            changed = true
        }
        if changed { gtk_widget_queue_draw(widget) }
    }

    func update(_ model: BoardModel) {
        self.model = model
        keyboard.settle(on: keyboardBoard)
        UI.accessibleDescription(widget, Self.describe(model))
        gtk_widget_queue_draw(widget)
    }

    /// What a screen reader says of the board: the word so far, with a gap
    /// for each empty slot, and the letters in the hand.
    static func describe(_ model: BoardModel) -> String {
        guard !model.slots.isEmpty else { return "" }
        let word = model.slots.map { $0.shown ?? "_" }.joined(separator: " ")
        let hand = model.hand.map(\.grapheme).joined(separator: ", ")
        return String(format: `_`("Your word: %@. Your letters: %@."), word, hand)
    }

    // MARK: keyboard

    private var keyboardBoard: BoardKeyboard.Board {
        BoardKeyboard.Board(hand: model.hand.map { .init(id: $0.id, grapheme: $0.grapheme) },
                            emptySlots: model.slots.indices.filter { model.slots[$0].shown == nil },
                            teammates: min(3, model.teammates.count))
    }

    private func keyPressed(_ keyval: UInt32, _ state: GdkModifierType) -> Bool {
        let key: BoardKeyboard.Key
        switch Int32(keyval) {
        case GDK_KEY_Left, GDK_KEY_KP_Left: key = .left
        case GDK_KEY_Right, GDK_KEY_KP_Right: key = .right
        case GDK_KEY_Up, GDK_KEY_KP_Up: key = .up
        case GDK_KEY_Down, GDK_KEY_KP_Down: key = .down
        case GDK_KEY_Return, GDK_KEY_KP_Enter, GDK_KEY_space: key = .activate
        case GDK_KEY_Escape: key = .cancel
        default:
            // Letters typed as they are; shortcuts with Ctrl or Alt are not letters.
            guard state.rawValue & (GDK_CONTROL_MASK.rawValue | GDK_ALT_MASK.rawValue) == 0,
                  let scalar = Unicode.Scalar(gdk_keyval_to_unicode(keyval)), scalar.value >= 0x20,
                  !CharacterSet.whitespacesAndNewlines.contains(scalar) else { return false }
            key = .typed(String(Character(scalar)))
        }
        let held = keyboard.held
        let outcome = keyboard.press(key, on: keyboardBoard)
        switch outcome {
        case .place(let tile, let slot):
            onDrop(tile, .slot(slot), liftedOrigin(for: .slot(slot)))
        case .send(let tile, let teammate) where teammate < model.teammates.count:
            onDrop(tile, .teammate(model.teammates[teammate].id), liftedOrigin(for: .teammate(teammate)))
        default:
            break
        }
        gtk_widget_queue_draw(widget)
        // Escape with nothing lifted is not ours: it may close a dialog.
        return !(key == .cancel && held == nil)
    }

    /// Where a lifted letter hovers: just above the slot or train it is over.
    private func liftedOrigin(for focus: BoardKeyboard.Focus) -> Point {
        let r = liftedRect(for: focus, in: layout)
        return Point(r.x, r.y)
    }

    private func liftedRect(for focus: BoardKeyboard.Focus, in l: BoardLayout) -> Rect {
        let r = rect(for: focus, in: l), s = l.tileSize
        return Rect(x: r.center.x - s / 2, y: r.y - s * 0.75, width: s, height: s)
    }

    private func rect(for focus: BoardKeyboard.Focus, in l: BoardLayout) -> Rect {
        switch focus {
        case .tile(let i): l.tileRect(i)
        case .slot(let i): l.slotRect(i)
        case .teammate(let i): l.trainRect(i)
        }
    }

    // MARK: answers to a drop

    /// The letter was right: it flies from where it was dropped into its slot.
    func snap(tile: Int, grapheme: String, from p: Point, slot: Int) {
        flights.append(Flight(grapheme: grapheme, tile: tile, from: p, target: .slot(slot), start: now, duration: 0.18, wobble: false))
        startTicking()
    }

    /// The letter was wrong (or dropped nowhere): it springs back to the hand.
    func springBack(tile: Int, grapheme: String, from p: Point) {
        guard let i = model.hand.firstIndex(where: { $0.id == tile }) else { return }
        flights.append(Flight(grapheme: grapheme, tile: tile, from: p, target: .hand(i), start: now, duration: 0.45, wobble: true))
        startTicking()
    }

    /// The letter went to a teammate: it rides into their train.
    func sent(tile: Int, grapheme: String, from p: Point, teammate: UInt32) {
        guard let i = model.teammates.firstIndex(where: { $0.id == teammate }) else { return }
        flights.append(Flight(grapheme: grapheme, tile: tile, from: p, target: .train(i), start: now, duration: 0.3, wobble: false))
        startTicking()
    }

    /// A word is complete: stars over the word.
    func celebrate() {
        let l = layout
        for i in model.slots.indices { stars.append((l.slotRect(i).center, now + Double(i) * 0.05)) }
        startTicking()
    }

    // MARK: dragging

    private func dragBegan(_ p: Point) {
        let l = layout
        if let i = l.tile(at: p) {
            let tile = model.hand[i]
            let r = l.tileRect(i)
            drag = (tile.id, tile.grapheme, Point(p.x - r.x, p.y - r.y), p)
        } else if let t = l.train(at: p) {
            trainDrag = (t, p)
        }
    }

    private func dragMoved(_ dx: Double, _ dy: Double) {
        if var d = drag {
            d.at = startPoint.map { Point($0.x + dx, $0.y + dy) } ?? d.at
            drag = d
            gtk_widget_queue_draw(widget)
        }
    }

    /// GtkGestureDrag reports offsets from the press point.
    private var startPoint: Point? {
        var x = 0.0, y = 0.0
        guard let dragGesture, gtk_gesture_drag_get_start_point(dragGesture, &x, &y) != 0 else { return nil }
        return Point(x, y)
    }

    private func dragEnded(_ dx: Double, _ dy: Double) {
        let l = layout
        if let d = drag, let s = startPoint {
            let p = Point(s.x + dx, s.y + dy)
            drag = nil
            let tileCentre = Point(p.x - d.grab.x + l.tileSize / 2, p.y - d.grab.y + l.tileSize / 2)
            let target: Drop
            if let slot = l.slot(at: tileCentre) ?? l.slot(at: p) {
                target = .slot(slot)
            } else if let t = l.train(at: p) ?? l.train(at: tileCentre) {
                target = .teammate(model.teammates[t].id)
            } else {
                target = .nowhere
            }
            onDrop(d.tile, target, Point(p.x - d.grab.x, p.y - d.grab.y))
        } else if let t = trainDrag, let s = startPoint {
            trainDrag = nil
            let p = Point(s.x + dx, s.y + dy)
            if let other = l.train(at: p), other != t.index {
                var order = model.teammates
                order.swapAt(t.index, other)
                model.teammates = order
                onTeammatesReordered(order.map(\.id))
            }
        }
        gtk_widget_queue_draw(widget)
    }

    // MARK: animation

    private var now: Double { Double(g_get_monotonic_time()) / 1_000_000 }

    private func startTicking() {
        gtk_widget_queue_draw(widget)
        guard !ticking else { return }
        ticking = true
        let box = Unmanaged.passRetained(ClosureBox({ [weak self] () -> Bool in
            guard let self else { return false }
            gtk_widget_queue_draw(self.widget)
            let t = self.now
            self.flights.removeAll { t > $0.start + $0.duration }
            self.stars.removeAll { t > $0.start + 1.2 }
            self.ticking = !self.flights.isEmpty || !self.stars.isEmpty
            return self.ticking
        } as @MainActor () -> Bool) as AnyObject).toOpaque()
        gtk_widget_add_tick_callback(widget, { _, _, data in
            let f = (Unmanaged<AnyObject>.fromOpaque(data!).takeUnretainedValue() as! ClosureBox<@MainActor () -> Bool>).value
            return MainActor.assumeIsolated { f() } ? 1 : 0
        }, box, { data in
            guard let data else { return }
            Unmanaged<AnyObject>.fromOpaque(data).release()
        })
    }

    // MARK: drawing

    private func draw(_ cr: OpaquePointer, width: Double, height: Double) {
        let l = BoardLayout(width: width, height: height, model: model)
        let t = now
        let flying = Set(flights.map(\.tile))

        for (i, mate) in model.teammates.enumerated() where i < 3 {
            drawTrain(cr, l.trainRect(i), mate, lifted: trainDrag?.index == i)
        }
        for (i, slot) in model.slots.enumerated() {
            let r = l.slotRect(i)
            let landing = flights.contains { if case .slot(i) = $0.target { true } else { false } }
            roundedRect(cr, r, 14)
            if model.finished {
                cairo_set_source_rgb(cr, 0.80, 0.93, 0.80)
            } else {
                // Empty slots are a light blue, clearly not paper and not a tile.
                cairo_set_source_rgb(cr, slot.shown == nil ? 0.91 : 1, slot.shown == nil ? 0.94 : 1, 1)
            }
            cairo_fill_preserve(cr)
            cairo_set_line_width(cr, slot.shown == nil ? 3 : 2)
            if slot.shown == nil { cairo_set_dash(cr, [8, 6], 2, 0) }
            cairo_set_source_rgb(cr, 0.17, 0.17, 0.43)
            cairo_stroke(cr)
            cairo_set_dash(cr, nil, 0, 0)
            if let g = slot.shown, !landing { drawLetter(cr, g, in: r, colour: (0.17, 0.17, 0.43)) }
        }
        let hasKeyboard = gtk_widget_has_focus(widget) != 0
        let lifted = hasKeyboard ? keyboard.held : nil
        for (i, tile) in model.hand.enumerated() where tile.id != drag?.tile && tile.id != lifted && !flying.contains(tile.id) {
            drawTile(cr, tile.grapheme, l.tileRect(i))
        }
        for f in flights {
            let k = min(1, max(0, (t - f.start) / f.duration))
            let to: Rect
            switch f.target {
            case .slot(let i): to = l.slotRect(i)
            case .hand(let i): to = l.tileRect(min(i, max(0, model.hand.count - 1)))
            case .train(let i): to = l.trainRect(i)
            }
            // Spring back overshoots a little and settles: gentle, not a buzz.
            let e = f.wobble ? 1 - cos(k * .pi * 2.5) * exp(-4 * k) : 1 - pow(1 - k, 3)
            let x = f.from.x + (to.x - f.from.x) * e, y = f.from.y + (to.y - f.from.y) * e
            drawTile(cr, f.grapheme, Rect(x: x, y: y, width: l.tileSize, height: l.tileSize))
        }
        if hasKeyboard, let focus = keyboard.focus {
            // A thick dark frame, far enough out to be seen round a tile.
            roundedRect(cr, rect(for: focus, in: l).insetBy(-7), 18)
            cairo_set_source_rgb(cr, 0.10, 0.25, 0.66)
            cairo_set_line_width(cr, 5)
            cairo_stroke(cr)
            if let held = keyboard.held, let tile = model.hand.first(where: { $0.id == held }) {
                drawTile(cr, tile.grapheme, liftedRect(for: focus, in: l), lifted: true)
            }
        }
        if let d = drag {
            drawTile(cr, d.grapheme, Rect(x: d.at.x - d.grab.x, y: d.at.y - d.grab.y, width: l.tileSize, height: l.tileSize),
                     lifted: true)
        }
        for s in stars where t >= s.start {
            let k = (t - s.start) / 1.2
            for j in 0..<6 {
                let a = Double(j) / 6 * 2 * .pi + k * 2
                let r = 20 + 90 * k
                drawStar(cr, Point(s.center.x + cos(a) * r, s.center.y + sin(a) * r), size: 14 * (1 - k) + 4, alpha: 1 - k)
            }
        }
    }

    private func roundedRect(_ cr: OpaquePointer, _ r: Rect, _ radius: Double) {
        cairo_new_sub_path(cr)
        cairo_arc(cr, r.maxX - radius, r.y + radius, radius, -.pi / 2, 0)
        cairo_arc(cr, r.maxX - radius, r.maxY - radius, radius, 0, .pi / 2)
        cairo_arc(cr, r.x + radius, r.maxY - radius, radius, .pi / 2, .pi)
        cairo_arc(cr, r.x + radius, r.y + radius, radius, .pi, 3 * .pi / 2)
        cairo_close_path(cr)
    }

    private func drawTile(_ cr: OpaquePointer, _ g: String, _ r: Rect, lifted: Bool = false) {
        if lifted {
            roundedRect(cr, Rect(x: r.x + 5, y: r.y + 7, width: r.width, height: r.height), 14)
            cairo_set_source_rgba(cr, 0, 0, 0, 0.25)
            cairo_fill(cr)
        }
        roundedRect(cr, r, 14)
        cairo_set_source_rgb(cr, 1.0, 0.83, 0.25)
        cairo_fill_preserve(cr)
        cairo_set_source_rgb(cr, 0.75, 0.52, 0.05)
        cairo_set_line_width(cr, 3)
        cairo_stroke(cr)
        drawLetter(cr, g, in: r, colour: (0.2, 0.12, 0.02))
    }

    private func drawLetter(_ cr: OpaquePointer, _ g: String, in r: Rect, colour: (Double, Double, Double)) {
        let layout = pango_cairo_create_layout(cr)!
        defer { g_object_unref(gp(layout)) }
        let font = pango_font_description_from_string("Sans Bold")!
        pango_font_description_set_absolute_size(font, Double(PANGO_SCALE) * r.height * 0.55)
        pango_layout_set_font_description(layout, font)
        pango_font_description_free(font)
        pango_layout_set_text(layout, g, -1)
        var ink = PangoRectangle(), logical = PangoRectangle()
        pango_layout_get_pixel_extents(layout, &ink, &logical)
        cairo_set_source_rgb(cr, colour.0, colour.1, colour.2)
        cairo_move_to(cr, r.x + (r.width - Double(logical.width)) / 2, r.y + (r.height - Double(logical.height)) / 2)
        pango_cairo_show_layout(cr, layout)
    }

    private func drawTrain(_ cr: OpaquePointer, _ r: Rect, _ mate: BoardModel.Teammate, lifted: Bool) {
        // A little locomotive: body, cab, wheels, and the teammate's name.
        let body = Rect(x: r.x + 6, y: r.y + 34, width: r.width - 12, height: r.height - 58)
        roundedRect(cr, body, 10)
        cairo_set_source_rgb(cr, mate.finished ? 0.12 : 0.89, mate.finished ? 0.48 : 0.13, mate.finished ? 0.20 : 0.11)
        cairo_fill(cr)
        roundedRect(cr, Rect(x: body.maxX - 48, y: r.y + 4, width: 46, height: 38), 8)
        cairo_fill(cr)
        cairo_set_source_rgb(cr, 0.15, 0.15, 0.15)
        for k in 0..<3 {
            cairo_arc(cr, body.x + 20 + Double(k) * (body.width - 40) / 2, body.maxY + 4, 10, 0, 2 * .pi)
            cairo_fill(cr)
        }
        // The teammate's drawn picture (else their letter badge) sits in the
        // cab window, beside the name on the body.
        if let picture = pictures[mate.id]?.image {
            Avatar.draw(picture, centre: (body.maxX - 25, r.y + 26), radius: 19, in: cr)
        } else {
            Avatar.draw(name: mate.name, centre: (body.maxX - 25, r.y + 26), radius: 19, in: cr)
        }
        if lifted {
            roundedRect(cr, r, 12)
            cairo_set_source_rgba(cr, 0.17, 0.17, 0.43, 0.5)
            cairo_set_line_width(cr, 3)
            cairo_stroke(cr)
        }
        let nameRect = Rect(x: body.x, y: body.y, width: body.width - 30, height: body.height)
        let layout = pango_cairo_create_layout(cr)!
        defer { g_object_unref(gp(layout)) }
        let font = pango_font_description_from_string("Sans Bold 13")!
        pango_layout_set_font_description(layout, font)
        pango_font_description_free(font)
        pango_layout_set_width(layout, Int32(nameRect.width) * PANGO_SCALE)
        pango_layout_set_ellipsize(layout, PANGO_ELLIPSIZE_END)
        pango_layout_set_text(layout, mate.name, -1)
        cairo_set_source_rgb(cr, 1, 1, 1)
        cairo_move_to(cr, nameRect.x + 8, nameRect.y + nameRect.height / 2 - 9)
        pango_cairo_show_layout(cr, layout)
    }

    private func drawStar(_ cr: OpaquePointer, _ c: Point, size: Double, alpha: Double) {
        cairo_new_path(cr)
        for k in 0..<10 {
            let r = k % 2 == 0 ? size : size * 0.45
            let a = Double(k) / 10 * 2 * .pi - .pi / 2
            if k == 0 { cairo_move_to(cr, c.x + cos(a) * r, c.y + sin(a) * r) } else { cairo_line_to(cr, c.x + cos(a) * r, c.y + sin(a) * r) }
        }
        cairo_close_path(cr)
        cairo_set_source_rgba(cr, 1.0, 0.75, 0.0, alpha)
        cairo_fill(cr)
    }
}
