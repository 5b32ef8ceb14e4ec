import CGtk
print(gtk_get_major_version(), cairo_version(), zlibVersion().map { String(cString: $0) } ?? "")
