import Foundation

/// Where the app's files (word pools, sounds, style sheet, icons) are found.
///
/// Directories are searched in order and the first one holding a file wins:
/// 1. `$TEAMSKETCH_RESOURCES` when set (tests point it anywhere), otherwise
///    the repository's `resources/` when the executable runs from a SwiftPM
///    build tree (`<repo>/.build/<config>/…`), so `make run` needs nothing
///    installed and a developer never picks up an older installed copy;
/// 2. `$XDG_DATA_HOME/teamsketch` (default `~/.local/share/teamsketch`);
/// 3. for an installed binary, its own prefix: `<bin>/../share/teamsketch`,
///    where `make install` puts them — so `PREFIX/bin/TeamsketchDesktop`
///    finds its own files whatever `$XDG_DATA_DIRS` says and whichever other
///    copy is installed elsewhere;
/// 4. each of `$XDG_DATA_DIRS` (default `/usr/local/share:/usr/share`) with
///    `/teamsketch` appended.
/// Relative entries in the XDG variables are ignored, as the XDG base
/// directory rules require.
public struct ResourceLocator: Sendable, Equatable {
    public static let overrideVariable = "TEAMSKETCH_RESOURCES"
    public static let dataSubdirectory = "teamsketch"
    public static let defaultDataDirs = ["/usr/local/share", "/usr/share"]

    /// The directories searched, best first.
    public let directories: [String]

    public init(directories: [String]) {
        var seen = Set<String>()
        self.directories = directories.filter { seen.insert($0).inserted }
    }

    public init(environment: [String: String], executablePath: String?, home: String = NSHomeDirectory()) {
        var dirs: [String] = []
        if let override = environment[Self.overrideVariable], !override.isEmpty {
            dirs.append(override)
        } else if let executablePath, let tree = Self.buildTreeResources(executablePath: executablePath) {
            dirs.append(tree)
        }
        let dataHome = environment["XDG_DATA_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
            ?? (environment["HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? home) + "/.local/share"
        dirs.append(Self.join(dataHome, Self.dataSubdirectory))
        if let executablePath, let own = Self.installedData(executablePath: executablePath) {
            dirs.append(own)
        }
        let listed = (environment["XDG_DATA_DIRS"] ?? "").split(separator: ":").map(String.init).filter { $0.hasPrefix("/") }
        for dir in listed.isEmpty ? Self.defaultDataDirs : listed {
            dirs.append(Self.join(dir, Self.dataSubdirectory))
        }
        self.init(directories: dirs)
    }

    /// The locator for this process: its environment and its executable
    /// (read through /proc so a symlinked `.build/debug` resolves to the
    /// real build directory, which is still inside the repository).
    public static func forCurrentProcess() -> ResourceLocator {
        let exe = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? CommandLine.arguments.first
        return ResourceLocator(environment: ProcessInfo.processInfo.environment, executablePath: exe)
    }

    /// `<repo>/resources` for an executable somewhere below `<repo>/.build/`;
    /// nil for one that is not in a build tree (an installed binary).
    public static func buildTreeResources(executablePath: String) -> String? {
        let parts = executablePath.split(separator: "/", omittingEmptySubsequences: true)
        guard executablePath.hasPrefix("/"), let build = parts.lastIndex(of: ".build") else { return nil }
        return "/" + (parts[..<build].map(String.init) + ["resources"]).joined(separator: "/")
    }

    /// `<prefix>/share/teamsketch` for an executable installed as
    /// `<prefix>/bin/<name>`; nil for one in a build tree, a relative path,
    /// or one directly in `/`.
    public static func installedData(executablePath: String) -> String? {
        guard executablePath.hasPrefix("/"), buildTreeResources(executablePath: executablePath) == nil else { return nil }
        let parts = executablePath.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        guard parts.count >= 2 else { return nil }
        return "/" + (parts.dropLast(2) + ["share", dataSubdirectory]).joined(separator: "/")
    }

    /// The first existing regular file at `relativePath` below one of the
    /// directories.
    public func path(for relativePath: String) -> String? {
        for dir in directories {
            let candidate = Self.join(dir, relativePath)
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: candidate, isDirectory: &isDirectory), !isDirectory.boolValue {
                return candidate
            }
        }
        return nil
    }

    /// The file's bytes, or why there are none: missing everywhere, or found
    /// but unreadable (which counts as damaged — a person can't tell the
    /// difference and the fix is the same: reinstall).
    public func contents(of relativePath: String) throws(ResourceProblem) -> (path: String, data: Data) {
        guard let path = path(for: relativePath) else {
            throw .missing(resource: relativePath, searched: directories)
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .damaged(resource: relativePath, path: path, reason: "cannot be read")
        }
        return (path, data)
    }

    static func join(_ dir: String, _ relative: String) -> String {
        dir.hasSuffix("/") ? dir + relative : dir + "/" + relative
    }
}
