import Foundation
import Logging

/// Log lines for the systemd journal, which reads the service's standard
/// error itself: no timestamp (the journal keeps its own), and each line
/// led by its priority as sd-daemon(3) writes it (`<3>` for an error), so
/// `journalctl -p warning` finds the warnings.
public struct JournalLogHandler: LogHandler {
    public var metadata: Logger.Metadata = [:]
    public var logLevel: Logger.Level = .info
    private let write: @Sendable (String) -> Void

    public init(write: @escaping @Sendable (String) -> Void = JournalLogHandler.standardError) {
        self.write = write
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        let all = metadata.merging(event.metadata ?? [:]) { $1 }
        var text = event.message.description
        if !all.isEmpty {
            text += " " + all.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        }
        // The journal takes each line as an entry: every line gets the level.
        let prefix = "<\(Self.priority(event.level))>"
        write(text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).map { prefix + $0 }.joined(separator: "\n") + "\n")
    }

    /// syslog's numbers, as the journal stores them.
    static func priority(_ level: Logger.Level) -> Int {
        switch level {
        case .trace, .debug: 7
        case .info: 6
        case .notice: 5
        case .warning: 4
        case .error: 3
        case .critical: 2
        }
    }

    /// Whether standard error is the journal's stream: systemd names it in
    /// JOURNAL_STREAM as "device:inode", which a redirect would change.
    public static func standardErrorIsJournal(environment: [String: String] = ProcessInfo.processInfo.environment) -> Bool {
        guard let named = environment["JOURNAL_STREAM"] else { return false }
        var status = stat()
        guard fstat(STDERR_FILENO, &status) == 0 else { return false }
        return named == "\(status.st_dev):\(status.st_ino)"
    }

    @Sendable public static func standardError(_ text: String) {
        // One write per entry: lines of two threads do not interleave.
        var bytes = Array(text.utf8)
        _ = bytes.withUnsafeMutableBytes { Foundation.write(STDERR_FILENO, $0.baseAddress, $0.count) }
    }
}
