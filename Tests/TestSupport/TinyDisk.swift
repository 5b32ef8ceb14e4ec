import Foundation

/// A real small disk for tests of a full one: a fresh tmpfs of
/// `kilobytes`, unmounted when the value goes away. Mounting needs root,
/// which `make test` and CI have.
public final class TinyDisk: Sendable {
    public let path: String
    public init(kilobytes: Int) throws {
        path = FileManager.default.temporaryDirectory.path + "/teamsketch-tinydisk-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        try Self.run("/bin/mount", ["-t", "tmpfs", "-o", "size=\(kilobytes)k", "tmpfs", path])
    }
    deinit {
        try? Self.run("/bin/umount", ["-l", path])
        try? FileManager.default.removeItem(atPath: path)
    }
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
    public static func run(_ tool: String, _ args: [String]) throws {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: tool)
        p.arguments = args
        try p.run()
        p.waitUntilExit()
        guard p.terminationStatus == 0 else { throw CocoaError(.fileWriteUnknown) }
    }
}
