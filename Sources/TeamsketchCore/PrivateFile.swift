import Foundation

/// Files only the user may read (a token, the teacher's PIN hash): made
/// private before anything is written into them, and replaced whole, so a
/// crash leaves the old file or the new one, never half of either.
enum PrivateFile {
    static func write(_ data: Data, to path: String) throws {
        let url = URL(fileURLWithPath: path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        let temporary = path + ".new"
        try? FileManager.default.removeItem(atPath: temporary)
        guard FileManager.default.createFile(atPath: temporary, contents: nil, attributes: [.posixPermissions: 0o600])
        else { throw CocoaError(.fileWriteNoPermission) }
        try data.write(to: URL(fileURLWithPath: temporary))
        guard rename(temporary, path) == 0 else { throw CocoaError(.fileWriteUnknown) }
    }
}
