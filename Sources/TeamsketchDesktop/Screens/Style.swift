import CGtk

/// The app's look, embedded so `make run` needs no installed resources.
/// Targets are at least 48 px (SPEC §1); colours stay readable in high contrast.
@MainActor
enum Style {
    static let css = """
    window { background: #fbf8f2; }
    .home-title { font-size: 34px; font-weight: 800; color: #2b2b6e; }
    .big-button { min-width: 180px; min-height: 160px; font-size: 22px; font-weight: 700; border-radius: 24px; }
    .big-button image { -gtk-icon-size: 64px; }
    .form-label { font-size: 20px; font-weight: 700; }
    .form-entry { min-height: 52px; font-size: 20px; }
    .choice { min-width: 120px; min-height: 64px; font-size: 18px; border-radius: 16px; }
    .choice:checked { background: #2b2b6e; color: white; }
    .toolbar { padding: 8px; background: #efe9dc; border-bottom: 1px solid #d8cfbd; }
    .tool { min-width: 52px; min-height: 52px; border-radius: 14px; }
    .tool:checked { background: #2b2b6e; color: white; }
    .pen { min-width: 40px; min-height: 40px; padding: 0; border-radius: 999px; border: 3px solid rgba(0,0,0,0.25); margin: 6px 1px; }
    .pen.active { min-width: 54px; min-height: 54px; margin: 0px 1px; border: 4px solid #2b2b6e; box-shadow: 0 2px 6px rgba(0,0,0,0.35); }
    .clock { font-size: 22px; font-weight: 800; font-feature-settings: "tnum"; min-width: 90px; }
    .clock.urgent { color: #c0261c; }
    .banner { background: #2b2b6e; color: white; font-size: 20px; font-weight: 700; padding: 10px 18px; border-radius: 14px; }
    .sketch-title { font-size: 20px; font-weight: 700; }
    .card { padding: 10px; border-radius: 18px; }
    .card-name { font-size: 16px; font-weight: 700; }
    .alert { padding: 24px; }
    .alert-title { font-size: 20px; font-weight: 800; }
    .alert-button { min-height: 48px; min-width: 110px; }
    .empty-note { font-size: 20px; color: #666; }
    .hint { font-size: 16px; color: #555; }
    .join-code { font-size: 64px; font-weight: 900; letter-spacing: 8px; color: #2b2b6e; font-feature-settings: "tnum"; }
    .member-row { padding: 6px 12px; border-radius: 14px; background: #efe9dc; min-width: 420px; }
    .accept { color: #1e7b34; }
    .decline { color: #c0261c; }
    .session-card { min-width: 160px; min-height: 150px; }
    .hint-text { font-size: 26px; font-weight: 700; color: #2b2b6e; }
    .reward { background: rgba(255, 250, 235, 0.95); padding: 36px; border-radius: 28px; border: 4px solid #ffc000; }
    .reward-title { font-size: 34px; font-weight: 900; color: #2b2b6e; }
    """

    static func install() {
        let provider = gtk_css_provider_new()!
        gtk_css_provider_load_from_data(provider, css, -1)
        gtk_style_context_add_provider_for_display(
            gdk_display_get_default(), ts_style_provider(provider),
            UInt32(GTK_STYLE_PROVIDER_PRIORITY_APPLICATION))
        penCSS(provider)
    }

    /// One class per felt pen, coloured from the model's palette.
    private static func penCSS(_ base: UnsafeMutablePointer<GtkCssProvider>) {
        var rules = ""
        for pen in PenColorCSS.all {
            rules += ".pen-\(pen.name) { background: \(pen.hex); }\n"
        }
        let provider = gtk_css_provider_new()!
        gtk_css_provider_load_from_data(provider, rules, -1)
        gtk_style_context_add_provider_for_display(
            gdk_display_get_default(), ts_style_provider(provider),
            UInt32(GTK_STYLE_PROVIDER_PRIORITY_APPLICATION))
    }
}
