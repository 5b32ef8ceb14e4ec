import Foundation

/// A real small disk for tests of a full one: a fresh tmpfs of
/// `kilobytes`, unmounted when the value goes away. Mounting needs root,
/// which `make test` and CI have.
public final class TinyDisk: Sendable {
    public let path: String
    public init(kilobytes: Int) async throws {
        path = FileManager.default.temporaryDirectory.path + "/teamsketch-tinydisk-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        try await Self.run("/bin/mount", ["-t", "tmpfs", "-o", "size=\(kilobytes)k", "tmpfs", path])
    }
    deinit { Self.detach(path) }
    /// Takes every free byte with one file, so the next write fails.
    public func fill() -> String {
        let filler = path + "/filler"
        FileManager.default.createFile(atPath: filler, contents: nil)
        if let h = FileHandle(forWritingAtPath: filler) {
            let chunk = Data(count: 4096)
            while (try? h.write(contentsOf: chunk)) != nil {}
            try? h.close()
        }
        return filler
    }

    /// Runs a tool to its end without holding the caller's thread. Tests
    /// on the main actor share one thread: mkfs, mount and umount flush to
    /// disk and take seconds on a busy machine, and a test that blocked
    /// there starved every other main-actor test's deadline (and
    /// `waitUntilExit` would also run the main run loop re-entrantly).
    public static func run(_ tool: String, _ args: [String]) async throws {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: tool)
        p.arguments = args
        let status: Int32 = try await withCheckedThrowingContinuation { done in
            p.terminationHandler = { done.resume(returning: $0.terminationStatus) }
            do { try p.run() } catch { done.resume(throwing: error) }
        }
        guard status == 0 else { throw CocoaError(.fileWriteUnknown) }
    }

    /// Detaches a mount at once (`umount -l` leaves the flushing to the
    /// kernel) and removes its directory; for a `deinit`, which cannot
    /// wait asynchronously. Waits on a semaphore, not the run loop.
    public static func detach(_ path: String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/umount")
        p.arguments = ["-l", path]
        let exited = DispatchSemaphore(value: 0)
        p.terminationHandler = { _ in exited.signal() }
        if (try? p.run()) != nil { exited.wait() }
        try? FileManager.default.removeItem(atPath: path)
    }
}
