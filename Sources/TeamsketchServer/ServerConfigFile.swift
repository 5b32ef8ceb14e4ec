import Foundation

/// The server's configuration file (/etc/teamsketch/server.conf under
/// systemd): one option of the command line per line, `name = value`,
/// named as on the command line without its dashes. `#` starts a comment;
/// a flag is `name = true`; an option that may be given more than once
/// (`trusted-proxy`) is a line each time. The file stands for options
/// placed right after the command's name, so whatever the command line
/// itself says wins. A name the server does not know stops it with the
/// line's number: a typo never silently falls back to a default.
struct ServerConfigFile {
    enum Kind: Sendable { case value, values, flag }

    /// Larger than any real configuration; read no further.
    static let maxBytes = 64 << 10

    struct Problem: Error, CustomStringConvertible {
        var description: String
    }

    /// Where the data lives: every command reads these.
    static let databaseKeys: [String: Kind] = [
        "data-dir": .value, "database": .value, "database-password-file": .value,
    ]

    /// `serve`'s own; `ServerConfigFileTests` checks this against its help.
    static let serveKeys: [String: Kind] = databaseKeys.merging([
        "host": .value, "port": .value, "tls-certificate": .value, "tls-key": .value, "no-announce": .flag,
        "trusted-proxy": .values, "max-connections-per-address": .value, "quota-mib-per-day": .value,
        "quota-mib-in-all": .value, "relay-address": .value, "metrics-token-file": .value,
    ]) { $1 }

    static let subcommands = ["serve", "backup", "restore", "create-teacher", "migrate-to"]

    /// The command line with `--config FILE` replaced by the file's options
    /// (only those of the command being run; a `serve` option in the file
    /// does not trouble `backup`).
    static func expand(_ arguments: [String], read: (String) throws -> String = Self.read) throws -> [String] {
        var arguments = arguments
        guard let at = arguments.firstIndex(where: { $0 == "--config" || $0.hasPrefix("--config=") }) else {
            return arguments
        }
        let path: String
        if arguments[at] == "--config" {
            guard at + 1 < arguments.count else { throw Problem(description: "--config needs a file.") }
            path = arguments[at + 1]
            arguments.removeSubrange(at...(at + 1))
        } else {
            path = String(arguments[at].dropFirst("--config=".count))
            arguments.remove(at: at)
        }
        let command = arguments.first.flatMap { subcommands.contains($0) ? $0 : nil }
        if command == nil { arguments.insert("serve", at: 0) }
        let known = (command ?? "serve") == "serve" ? serveKeys : databaseKeys
        let options = try Self.arguments(try read(path), file: path, known: known)
        arguments.insert(contentsOf: options, at: 1)
        return arguments
    }

    /// The options a file's text stands for, in its order; `known`: the
    /// names the command being run takes (others the server knows are
    /// skipped, unknown ones refused).
    static func arguments(_ text: String, file: String, known: [String: Kind]) throws -> [String] {
        var result: [String] = []
        var seen: Set<String> = []
        for (index, raw) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespacesAndNewlines)
            if line.isEmpty || line.hasPrefix("#") { continue }
            let at = "\(file), line \(index + 1)"
            guard let equals = line.firstIndex(of: "=") else {
                throw Problem(description: "\(at): write name = value.")
            }
            let name = line[..<equals].trimmingCharacters(in: .whitespaces)
            var value = line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") { value = String(value.dropFirst().dropLast()) }
            guard let kind = serveKeys[name] else {
                throw Problem(description: "\(at): the server has no option \"\(name)\".")
            }
            if kind != .values, !seen.insert(name).inserted {
                throw Problem(description: "\(at): \"\(name)\" is given twice.")
            }
            guard known[name] != nil else { continue }
            switch kind {
            case .flag:
                switch value.lowercased() {
                case "true", "yes", "on", "1": result.append("--" + name)
                case "false", "no", "off", "0": break
                default: throw Problem(description: "\(at): \(name) is true or false.")
                }
            case .value, .values:
                guard !value.isEmpty else { throw Problem(description: "\(at): \(name) needs a value.") }
                result.append("--" + name + "=" + value)
            }
        }
        return result
    }

    static func read(_ path: String) throws -> String {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw Problem(description: "--config: cannot read \(path).")
        }
        defer { try? handle.close() }
        let bytes = (try? handle.read(upToCount: maxBytes + 1)) ?? nil ?? Data()
        guard bytes.count <= maxBytes else {
            throw Problem(description: "--config: \(path) is over \(maxBytes >> 10) KiB; is it the right file?")
        }
        guard let text = String(data: bytes, encoding: .utf8) else {
            throw Problem(description: "--config: \(path) is not UTF-8 text.")
        }
        return text
    }
}
