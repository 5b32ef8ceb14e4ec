import CGtk

typealias Widget = UnsafeMutablePointer<GtkWidget>

/// Small helpers over the GTK C API; screens use these instead of casts.
@MainActor
enum UI {
    static func raw(_ w: Widget) -> UnsafeMutableRawPointer { UnsafeMutableRawPointer(w) }

    static func label(_ text: String, classes: [String] = []) -> Widget {
        let l = gtk_label_new(text)!
        gtk_label_set_wrap(ts_label(l), 1)
        style(l, classes)
        return l
    }

    static func setText(_ label: Widget, _ text: String) {
        gtk_label_set_text(ts_label(label), text)
    }

    static func button(_ text: String, icon: String? = nil, classes: [String] = [],
                       action: @escaping @MainActor () -> Void) -> Widget {
        let b = gtk_button_new()!
        gtk_button_set_child(ts_button(b), iconAndText(text, icon: icon, size: 48))
        // GTK 4.8 names a button only from its own label, not from a label
        // inside a child box: without this a screen reader says "button".
        accessibleLabel(b, text)
        style(b, classes)
        Signal.connect(raw(b), "clicked", action)
        return b
    }

    /// A toggle button with a picture above its words, like `button`.
    static func toggleButton(_ text: String, icon: String, classes: [String] = []) -> Widget {
        let b = gtk_toggle_button_new()!
        gtk_button_set_child(ts_button(b), iconAndText(text, icon: icon, size: 32))
        accessibleLabel(b, text)
        style(b, classes)
        return b
    }

    /// A button that shows `content` in a bubble beside it when pressed.
    static func popoverButton(_ text: String, icon: String, classes: [String] = [], content: Widget) -> Widget {
        let b = gtk_menu_button_new()!
        gtk_menu_button_set_child(ts_menu_button(b), iconAndText(text, icon: icon, size: 32))
        let popover = gtk_popover_new()!
        gtk_popover_set_child(ts_popover(popover), content)
        gtk_menu_button_set_popover(ts_menu_button(b), popover)
        accessibleLabel(b, text)
        // The menu button takes the keyboard with the button inside it,
        // which GTK 4.8 leaves unnamed.
        if let inner = gtk_widget_get_first_child(b) { accessibleLabel(inner, text) }
        style(b, classes)
        return b
    }

    /// A button's inside: its picture (if any) above its words.
    private static func iconAndText(_ text: String, icon: String?, size: Int32) -> Widget {
        let box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 6)!
        gtk_widget_set_valign(box, GTK_ALIGN_CENTER)
        if let icon {
            let img = gtk_image_new_from_icon_name(icon)!
            gtk_image_set_pixel_size(ts_image(img), size)
            gtk_box_append(ts_box(box), img)
        }
        gtk_box_append(ts_box(box), gtk_label_new(text))
        return box
    }

    static func iconButton(_ icon: String, tooltip: String, classes: [String] = [],
                           action: @escaping @MainActor () -> Void) -> Widget {
        let b = gtk_button_new()!
        let img = gtk_image_new_from_icon_name(icon)!
        gtk_image_set_pixel_size(ts_image(img), 28)
        gtk_button_set_child(ts_button(b), img)
        gtk_widget_set_tooltip_text(b, tooltip)
        accessibleLabel(b, tooltip)
        style(b, classes)
        Signal.connect(raw(b), "clicked", action)
        return b
    }

    static func box(_ orientation: GtkOrientation, spacing: Int32 = 12, classes: [String] = [],
                    _ children: [Widget] = []) -> Widget {
        let b = gtk_box_new(orientation, spacing)!
        for c in children { gtk_box_append(ts_box(b), c) }
        style(b, classes)
        return b
    }

    static func append(_ box: Widget, _ child: Widget) { gtk_box_append(ts_box(box), child) }

    static func clear(_ box: Widget) {
        while let child = gtk_widget_get_first_child(box) { gtk_box_remove(ts_box(box), child) }
    }

    static func style(_ w: Widget, _ classes: [String]) {
        for c in classes { gtk_widget_add_css_class(w, c) }
    }

    static func setClass(_ w: Widget, _ cls: String, _ on: Bool) {
        if on { gtk_widget_add_css_class(w, cls) } else { gtk_widget_remove_css_class(w, cls) }
    }

    static func expand(_ w: Widget, h: Bool = true, v: Bool = true) {
        gtk_widget_set_hexpand(w, h ? 1 : 0)
        gtk_widget_set_vexpand(w, v ? 1 : 0)
    }

    /// `child` in a scrolled window that scrolls up and down only (and
    /// sideways too when `sideways`).
    static func scrolled(_ child: Widget, sideways: Bool = false) -> Widget {
        let scroller = gtk_scrolled_window_new()!
        gtk_scrolled_window_set_policy(ts_scrolled(scroller), sideways ? GTK_POLICY_AUTOMATIC : GTK_POLICY_NEVER,
                                       GTK_POLICY_AUTOMATIC)
        gtk_scrolled_window_set_child(ts_scrolled(scroller), child)
        return scroller
    }

    static func center(_ w: Widget) {
        gtk_widget_set_halign(w, GTK_ALIGN_CENTER)
        gtk_widget_set_valign(w, GTK_ALIGN_CENTER)
    }

    /// Screen readers read this name for controls that show only an icon or colour.
    static func accessibleLabel(_ w: Widget, _ text: String) {
        setAccessible(w, GTK_ACCESSIBLE_PROPERTY_LABEL, text)
        // A drop-down takes the keyboard with the button inside it, which
        // GTK 4.8 leaves unnamed: it gets the same name.
        if g_type_check_instance_is_a(UnsafeMutablePointer<GTypeInstance>(OpaquePointer(w)), gtk_drop_down_get_type()) != 0,
           let button = gtk_widget_get_first_child(w) {
            setAccessible(button, GTK_ACCESSIBLE_PROPERTY_LABEL, text)
        }
    }

    /// What a screen reader says after the name: what a picture shows.
    static func accessibleDescription(_ w: Widget, _ text: String) {
        setAccessible(w, GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, text)
    }

    private static func setAccessible(_ w: Widget, _ property: GtkAccessibleProperty, _ text: String) {
        var value = GValue()
        g_value_init(&value, gtk_gtype_string())
        g_value_set_string(&value, text)
        var prop = property
        gtk_accessible_update_property_value(ts_accessible(w), 1, &prop, &value)
        g_value_unset(&value)
    }

    /// A drawing area with the accessible role it plays (a picture, say):
    /// GTK sets the role only when the widget is made.
    static func drawingArea(role: GtkAccessibleRole) -> Widget {
        var value = GValue()
        g_value_init(&value, gtk_accessible_role_get_type())
        g_value_set_enum(&value, Int32(role.rawValue))
        let names: [UnsafePointer<CChar>?] = [("accessible-role" as StaticString).utf8Start.withMemoryRebound(to: CChar.self, capacity: 16) { $0 }]
        var values = [value]
        let object = names.withUnsafeBufferPointer { n in
            g_object_new_with_properties(gtk_drawing_area_get_type(), 1, UnsafeMutablePointer(mutating: n.baseAddress), &values)
        }
        g_value_unset(&values[0])
        return UnsafeMutableRawPointer(object!).assumingMemoryBound(to: GtkWidget.self)
    }

    static func entryText(_ entry: Widget) -> String {
        String(cString: gtk_editable_get_text(ts_editable(entry)))
    }
}

/// G_TYPE_STRING is a macro; its fundamental type number is fixed by GLib.
func gtk_gtype_string() -> GType { GType(16 << 2) }
/// G_TYPE_INT, likewise.
func gtk_gtype_int() -> GType { GType(6 << 2) }

/// GTK types without a public struct (GtkGesture, GtkNative, GdkTexture, …)
/// import as OpaquePointer; the cast helpers take gpointer.
func gp(_ p: OpaquePointer) -> gpointer { UnsafeMutableRawPointer(p) }

extension UI {
    typealias DrawHandler = @MainActor (_ cr: OpaquePointer, _ width: Int32, _ height: Int32) -> Void

    /// Sets a drawing area's draw function to a Swift closure, retained for
    /// as long as the area keeps it.
    static func setDrawFunc(_ area: Widget, _ handler: @escaping DrawHandler) {
        let box = Unmanaged.passRetained(ClosureBox(handler) as AnyObject).toOpaque()
        gtk_drawing_area_set_draw_func(ts_drawing_area(area), { _, cr, w, h, data in
            let f = (Unmanaged<AnyObject>.fromOpaque(data!).takeUnretainedValue() as! ClosureBox<DrawHandler>).value
            // Pointers aren't Sendable: the context crosses as an address.
            let address = Int(bitPattern: cr)
            MainActor.assumeIsolated { f(OpaquePointer(bitPattern: address)!, w, h) }
        }, box, { data in
            guard let data else { return }
            Unmanaged<AnyObject>.fromOpaque(data).release()
        })
    }
}
