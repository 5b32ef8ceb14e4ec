import CGtk
import Foundation

/// PNG bytes as a GdkTexture for a GtkPicture. The caller owns the
/// returned reference (g_object_unref when done).
enum Texture {
    static func png(_ data: Data) -> OpaquePointer? {
        data.withUnsafeBytes { raw -> OpaquePointer? in
            let bytes = g_bytes_new(raw.baseAddress, gsize(raw.count))
            defer { g_bytes_unref(bytes) }
            return gdk_texture_new_from_bytes(bytes, nil)
        }
    }
}
