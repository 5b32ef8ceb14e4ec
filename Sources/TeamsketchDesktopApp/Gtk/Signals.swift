import CGtk

/// Holds a Swift closure for the lifetime of a GTK signal connection. GTK gets
/// a retained pointer and releases it through the destroy notify, so the box
/// lives exactly as long as the connection.
final class ClosureBox<T> {
    let value: T
    init(_ value: T) { self.value = value }
}

private let releaseBox: GClosureNotify = { data, _ in
    guard let data else { return }
    Unmanaged<AnyObject>.fromOpaque(data).release()
}

private func connectRaw<T>(_ instance: UnsafeMutableRawPointer, _ signal: String, _ value: T,
                           _ trampoline: GCallback) {
    let box = Unmanaged.passRetained(ClosureBox(value) as AnyObject).toOpaque()
    _ = ts_signal_connect(instance, signal, trampoline, box, releaseBox)
}

private func unbox<T>(_ data: gpointer?) -> T {
    (Unmanaged<AnyObject>.fromOpaque(data!).takeUnretainedValue() as! ClosureBox<T>).value
}

/// Typed connections for the signal shapes the app uses. Handlers run on the
/// GTK thread, which is the main actor once MainQueueBridge is installed.
enum Signal {
    typealias Handler = @MainActor () -> Void

    /// `void (*)(GObject*, gpointer)`: clicked, activate, toggled, destroy, notify-free signals.
    static func connect(_ instance: UnsafeMutableRawPointer, _ signal: String, _ handler: @escaping Handler) {
        let t: @convention(c) (gpointer?, gpointer?) -> Void = { _, data in
            let h: Handler = unbox(data)
            MainActor.assumeIsolated { h() }
        }
        connectRaw(instance, signal, handler, unsafeBitCast(t, to: GCallback.self))
    }

    /// `void (*)(GObject*, GParamSpec*, gpointer)`: "notify::<property>".
    static func connectNotify(_ instance: UnsafeMutableRawPointer, property: String, _ handler: @escaping Handler) {
        let t: @convention(c) (gpointer?, gpointer?, gpointer?) -> Void = { _, _, data in
            let h: Handler = unbox(data)
            MainActor.assumeIsolated { h() }
        }
        connectRaw(instance, "notify::" + property, handler, unsafeBitCast(t, to: GCallback.self))
    }

    /// `void (*)(GObject*, GObject*, gpointer)`: a list item factory's
    /// setup, bind and unbind (the second object is the GtkListItem).
    static func connectObject(_ instance: UnsafeMutableRawPointer, _ signal: String,
                              _ handler: @escaping @MainActor (UnsafeMutableRawPointer) -> Void) {
        let t: @convention(c) (gpointer?, gpointer?, gpointer?) -> Void = { _, object, data in
            // Pointers aren't Sendable: the object crosses as an address.
            guard let address = object.map({ Int(bitPattern: $0) }) else { return }
            let h: @MainActor (UnsafeMutableRawPointer) -> Void = unbox(data)
            MainActor.assumeIsolated { h(UnsafeMutableRawPointer(bitPattern: address)!) }
        }
        connectRaw(instance, signal, handler, unsafeBitCast(t, to: GCallback.self))
    }

    /// `void (*)(GObject*, guint, gpointer)`: a list or grid view's activate.
    static func connectIndex(_ instance: UnsafeMutableRawPointer, _ signal: String,
                             _ handler: @escaping @MainActor (Int) -> Void) {
        let t: @convention(c) (gpointer?, UInt32, gpointer?) -> Void = { _, index, data in
            let h: @MainActor (Int) -> Void = unbox(data)
            MainActor.assumeIsolated { h(Int(index)) }
        }
        connectRaw(instance, signal, handler, unsafeBitCast(t, to: GCallback.self))
    }

    /// `gboolean (*)(GObject*, gpointer)`: close-request and similar.
    static func connectBool(_ instance: UnsafeMutableRawPointer, _ signal: String,
                            _ handler: @escaping @MainActor () -> Bool) {
        let t: @convention(c) (gpointer?, gpointer?) -> gboolean = { _, data in
            let h: @MainActor () -> Bool = unbox(data)
            return MainActor.assumeIsolated { h() } ? 1 : 0
        }
        connectRaw(instance, signal, handler, unsafeBitCast(t, to: GCallback.self))
    }

    /// `void (*)(GObject*, double, gpointer)`: scale-changed of GtkGestureZoom.
    static func connectDouble(_ instance: UnsafeMutableRawPointer, _ signal: String,
                              _ handler: @escaping @MainActor (Double) -> Void) {
        let t: @convention(c) (gpointer?, Double, gpointer?) -> Void = { _, a, data in
            let h: @MainActor (Double) -> Void = unbox(data)
            MainActor.assumeIsolated { h(a) }
        }
        connectRaw(instance, signal, handler, unsafeBitCast(t, to: GCallback.self))
    }

    /// `void (*)(GObject*, double, double, gpointer)`: drag-begin/update/end, motion.
    static func connectPoint(_ instance: UnsafeMutableRawPointer, _ signal: String,
                             _ handler: @escaping @MainActor (Double, Double) -> Void) {
        let t: @convention(c) (gpointer?, Double, Double, gpointer?) -> Void = { _, a, b, data in
            let h: @MainActor (Double, Double) -> Void = unbox(data)
            MainActor.assumeIsolated { h(a, b) }
        }
        connectRaw(instance, signal, handler, unsafeBitCast(t, to: GCallback.self))
    }

    /// `gboolean (*)(GObject*, double, double, gpointer)`: scroll.
    static func connectScroll(_ instance: UnsafeMutableRawPointer, _ signal: String,
                              _ handler: @escaping @MainActor (Double, Double) -> Bool) {
        let t: @convention(c) (gpointer?, Double, Double, gpointer?) -> gboolean = { _, a, b, data in
            let h: @MainActor (Double, Double) -> Bool = unbox(data)
            return MainActor.assumeIsolated { h(a, b) } ? 1 : 0
        }
        connectRaw(instance, signal, handler, unsafeBitCast(t, to: GCallback.self))
    }

    /// `void (*)(GObject*, int, double, double, gpointer)`: pressed/released of GtkGestureClick.
    static func connectClick(_ instance: UnsafeMutableRawPointer, _ signal: String,
                             _ handler: @escaping @MainActor (Int, Double, Double) -> Void) {
        let t: @convention(c) (gpointer?, Int32, Double, Double, gpointer?) -> Void = { _, n, x, y, data in
            let h: @MainActor (Int, Double, Double) -> Void = unbox(data)
            MainActor.assumeIsolated { h(Int(n), x, y) }
        }
        connectRaw(instance, signal, handler, unsafeBitCast(t, to: GCallback.self))
    }

    /// `gboolean (*)(GtkEventControllerLegacy*, GdkEvent*, gpointer)`: the raw event stream.
    static func connectEvent(_ instance: UnsafeMutableRawPointer, _ signal: String,
                             _ handler: @escaping @MainActor (OpaquePointer) -> Bool) {
        let t: @convention(c) (gpointer?, OpaquePointer?, gpointer?) -> gboolean = { _, event, data in
            let h: @MainActor (OpaquePointer) -> Bool = unbox(data)
            // Pointers aren't Sendable; the address crosses into the main-actor
            // closure as a plain integer (we are on the main thread already).
            let address = Int(bitPattern: event)
            guard address != 0 else { return 0 }
            return MainActor.assumeIsolated { h(OpaquePointer(bitPattern: address)!) } ? 1 : 0
        }
        connectRaw(instance, signal, handler, unsafeBitCast(t, to: GCallback.self))
    }

    /// `gboolean (*)(GtkEventControllerKey*, guint keyval, guint keycode, GdkModifierType, gpointer)`.
    static func connectKey(_ instance: UnsafeMutableRawPointer, _ signal: String,
                           _ handler: @escaping @MainActor (UInt32, GdkModifierType) -> Bool) {
        let t: @convention(c) (gpointer?, UInt32, UInt32, GdkModifierType, gpointer?) -> gboolean = { _, key, _, state, data in
            let h: @MainActor (UInt32, GdkModifierType) -> Bool = unbox(data)
            return MainActor.assumeIsolated { h(key, state) } ? 1 : 0
        }
        connectRaw(instance, signal, handler, unsafeBitCast(t, to: GCallback.self))
    }

    /// `void (*)(GtkDialog*, int, gpointer)`: response of dialogs and native dialogs.
    static func connectResponse(_ instance: UnsafeMutableRawPointer, _ signal: String,
                                _ handler: @escaping @MainActor (Int) -> Void) {
        let t: @convention(c) (gpointer?, Int32, gpointer?) -> Void = { _, r, data in
            let h: @MainActor (Int) -> Void = unbox(data)
            MainActor.assumeIsolated { h(Int(r)) }
        }
        connectRaw(instance, signal, handler, unsafeBitCast(t, to: GCallback.self))
    }
}

/// Runs `body` once after `ms` milliseconds on the GTK loop.
@MainActor
@discardableResult
package func runAfter(ms: UInt32, _ body: @escaping @MainActor () -> Void) -> UInt32 {
    let box = Unmanaged.passRetained(ClosureBox(body) as AnyObject).toOpaque()
    return g_timeout_add_full(G_PRIORITY_DEFAULT, ms, { data in
        let h: @MainActor () -> Void = unbox(data)
        MainActor.assumeIsolated { h() }
        return 0 // G_SOURCE_REMOVE
    }, box, { data in
        guard let data else { return }
        Unmanaged<AnyObject>.fromOpaque(data).release()
    })
}

/// Calls `body` every `ms` milliseconds while it returns true.
@MainActor
@discardableResult
func runEvery(ms: UInt32, _ body: @escaping @MainActor () -> Bool) -> UInt32 {
    let box = Unmanaged.passRetained(ClosureBox(body) as AnyObject).toOpaque()
    return g_timeout_add_full(G_PRIORITY_DEFAULT, ms, { data in
        let h: @MainActor () -> Bool = unbox(data)
        return MainActor.assumeIsolated { h() } ? 1 : 0
    }, box, { data in
        guard let data else { return }
        Unmanaged<AnyObject>.fromOpaque(data).release()
    })
}

/// Runs `body` once when the GTK loop has nothing more urgent to do: after
/// pending input and frames (work that may wait, such as tiles off screen).
@MainActor
@discardableResult
func runWhenIdle(_ body: @escaping @MainActor () -> Void) -> UInt32 {
    let box = Unmanaged.passRetained(ClosureBox(body) as AnyObject).toOpaque()
    return g_idle_add_full(G_PRIORITY_DEFAULT_IDLE, { data in
        let h: @MainActor () -> Void = unbox(data)
        MainActor.assumeIsolated { h() }
        return 0 // G_SOURCE_REMOVE
    }, box, { data in
        guard let data else { return }
        Unmanaged<AnyObject>.fromOpaque(data).release()
    })
}
