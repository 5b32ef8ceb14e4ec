/// What Avahi gets as `userdata`: a retained box with a weak reference to
/// the Swift object. Avahi may call back after that object is gone (a
/// callback already queued on the GLib loop); the weak reference turns such
/// a late call into a no-op instead of a use-after-free. The owner releases
/// the box right after freeing the Avahi object it was given to.
@MainActor
final class AvahiCallbackTarget<Target: AnyObject> {
    weak var target: Target?

    init(_ target: Target) {
        self.target = target
    }

    /// A +1 pointer for Avahi; balance it with `release(_:)`.
    func retainedPointer() -> UnsafeMutableRawPointer {
        Unmanaged.passRetained(self).toOpaque()
    }

    static func release(_ pointer: UnsafeMutableRawPointer) {
        Unmanaged<AvahiCallbackTarget<Target>>.fromOpaque(pointer).release()
    }

    /// Called from a C callback: Avahi runs its callbacks from the GLib main
    /// loop, which is the main thread and thus the main actor.
    nonisolated static func target(_ userdata: UnsafeMutableRawPointer?) -> AvahiCallbackTarget<Target>? {
        userdata.map { Unmanaged<AvahiCallbackTarget<Target>>.fromOpaque($0).takeUnretainedValue() }
    }
}
