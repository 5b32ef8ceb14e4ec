import CGtk
import TeamsketchCore

extension TextScale {
    /// The text size the desktop asks for now.
    @MainActor static var current: Double {
        guard let settings = gtk_settings_get_default() else { return 1 }
        var value = GValue()
        g_value_init(&value, gtk_gtype_int())
        g_object_get_property(UnsafeMutableRawPointer(settings).assumingMemoryBound(to: GObject.self), "gtk-xft-dpi", &value)
        defer { g_value_unset(&value) }
        return factor(xftDPI: Int(g_value_get_int(&value)))
    }
}
