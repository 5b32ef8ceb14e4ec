import Foundation
import LearnModel

/// Whole-file reads and atomic writes with POSIX error text, so messages say
/// "No such file or directory" rather than Foundation's long sentences.
public enum FileBytes {
    /// The whole file, refused with `tooLarge` when it holds more than
    /// `limit` bytes — checked before anything is allocated, and again while
    /// reading, for files that grow or lie about their size.
    public static func read(_ path: String, limit: Int = SketchLimits.maxFileBytes,
                            progress: SketchReadProgress = .none) throws(SketchIOError) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw .unreadable(path: path, reason: errnoText()) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .unreadable(path: path, reason: errnoText()) }
        if (info.st_mode & S_IFMT) == S_IFDIR { throw .unreadable(path: path, reason: "it is a folder") }
        guard info.st_size <= limit else { throw .tooLarge(path: path, limit: limit) }
        var bytes = [UInt8](repeating: 0, count: max(Int(info.st_size), 0))
        var filled = 0
        while true {
            if filled == bytes.count {
                guard filled <= limit else { throw .tooLarge(path: path, limit: limit) }
                bytes.append(contentsOf: repeatElement(0, count: min(max(bytes.count, 1 << 16), limit + 1 - filled)))
            }
            try progress.check(path)
            // In chunks, so progress moves and a cancel is heard on big files.
            let n = bytes.withUnsafeMutableBytes { buf in
                Foundation.read(fd, buf.baseAddress! + filled, min(buf.count - filled, Self.chunk))
            }
            if n < 0 {
                if errno == EINTR { continue }
                throw .unreadable(path: path, reason: errnoText())
            }
            if n == 0 { break }
            filled += n
            if info.st_size > 0 { progress.report(.reading(fraction: min(1, Double(filled) / Double(info.st_size)))) }
        }
        bytes.removeSubrange(filled...)
        return bytes
    }

    private static let chunk = 1 << 20

    /// Writes next to the target and renames, so a failed export never leaves
    /// a half-written file where a good one was.
    public static func write(_ bytes: [UInt8], to path: String) throws(SketchIOError) {
        let temp = path + ".part-\(getpid())"
        let fd = open(temp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw .unwritable(path: path, reason: errnoText()) }
        var written = 0
        while written < bytes.count {
            let n = bytes.withUnsafeBytes { buf in
                Foundation.write(fd, buf.baseAddress! + written, buf.count - written)
            }
            if n < 0 {
                if errno == EINTR { continue }
                let reason = errnoText()
                close(fd)
                unlink(temp)
                throw .unwritable(path: path, reason: reason)
            }
            written += n
        }
        guard close(fd) == 0, rename(temp, path) == 0 else {
            let reason = errnoText()
            unlink(temp)
            throw .unwritable(path: path, reason: reason)
        }
    }

    public static func exists(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0
    }

    private static func errnoText() -> String {
        String(cString: strerror(errno)).lowercased()
    }
}
