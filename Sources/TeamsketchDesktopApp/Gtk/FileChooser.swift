import CGtk

/// GtkFileChooserNative (GtkFileDialog needs GTK 4.10): asks for one path.
@MainActor
enum FileChooser {
    struct Filter {
        let name: String
        let patterns: [String]
    }

    static func ask(parent: Widget?, title: String, save: Bool, acceptLabel: String,
                    suggestedName: String? = nil, filters: [Filter],
                    completion: @escaping @MainActor (String) -> Void) {
        let chooser = gtk_file_chooser_native_new(
            title, parent.map { ts_window($0) }, save ? GTK_FILE_CHOOSER_ACTION_SAVE : GTK_FILE_CHOOSER_ACTION_OPEN,
            acceptLabel, `_`("Cancel"))!
        let fc = ts_file_chooser(gp(chooser))
        if let suggestedName { gtk_file_chooser_set_current_name(fc, suggestedName) }
        for f in filters {
            let filter = gtk_file_filter_new()!
            gtk_file_filter_set_name(filter, f.name)
            for p in f.patterns { gtk_file_filter_add_pattern(filter, p) }
            gtk_file_chooser_add_filter(fc, filter)
        }
        Signal.connectResponse(gp(chooser), "response") { response in
            defer { g_object_unref(gp(chooser)) }
            guard response == Int(GTK_RESPONSE_ACCEPT.rawValue), let file = gtk_file_chooser_get_file(fc) else { return }
            defer { g_object_unref(gp(file)) }
            guard let cpath = g_file_get_path(file) else { return }
            let path = String(cString: cpath)
            g_free(cpath)
            completion(path)
        }
        gtk_native_dialog_show(ts_native_dialog(gp(chooser)))
    }
}
