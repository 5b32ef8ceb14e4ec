import CGtk
import TeamsketchCore

/// The app's look: the style sheet from the resources (style/teamsketch.css),
/// the pen colours from the model's palette, and the app's icon. Without the
/// style sheet GTK's plain look remains and the person is told why.
@MainActor
enum Style {
    static func install() {
        switch StyleSheetFile.locate(AppResources.locator) {
        case .success(let path):
            let provider = gtk_css_provider_new()!
            gtk_css_provider_load_from_path(provider, path)
            add(provider)
        case .failure(let problem):
            ResourceNotice.report(
                [problem], title: `_`("Teamsketch looks plainer than usual"),
                message: String(format: `_`("The file for the app's look (%@) is missing or damaged. Everything still works; only the buttons look plain."),
                                problem.resource) + "\n\n" + ResourceNotice.reinstallAdvice)
        }
        penCSS()
        icon()
    }

    /// One class per felt pen, coloured from the model's palette. Built here
    /// rather than kept in the style sheet so the two can never disagree.
    private static func penCSS() {
        var rules = ""
        for pen in PenColorCSS.all {
            rules += ".pen-\(pen.name) { background: \(pen.hex); }\n"
        }
        let provider = gtk_css_provider_new()!
        gtk_css_provider_load_from_data(provider, rules, -1)
        add(provider)
    }

    private static func add(_ provider: UnsafeMutablePointer<GtkCssProvider>) {
        gtk_style_context_add_provider_for_display(
            gdk_display_get_default(), ts_style_provider(provider),
            UInt32(GTK_STYLE_PROVIDER_PRIORITY_APPLICATION))
    }

    /// The window's icon. Installed icons are found through the system's
    /// icon theme; from the build tree GTK is shown where ours are.
    private static func icon() {
        if let dir = AppIconFiles.themeDirectory(AppResources.locator), let display = gdk_display_get_default() {
            gtk_icon_theme_add_search_path(gtk_icon_theme_get_for_display(display), dir)
        }
        gtk_window_set_default_icon_name(AppIconFiles.applicationID)
    }
}
