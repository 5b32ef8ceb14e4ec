/// A session's events arrive on its NIO thread, one after the other; the
/// app handles them on the main actor. One AsyncStream between the two
/// keeps their order (a Task per event would not).
public enum MainActorEvents {
    /// The closure to give the session; `handle` sees each event in turn on
    /// the main actor.
    public static func sink<Event: Sendable>(_ handle: @escaping @MainActor (Event) -> Void) -> @Sendable (Event) -> Void {
        let (stream, continuation) = AsyncStream<Event>.makeStream()
        Task { @MainActor in
            for await event in stream { handle(event) }
        }
        return { continuation.yield($0) }
    }
}
