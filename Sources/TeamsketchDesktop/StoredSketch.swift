import Foundation
import GRDB
import LearnModel
import LearnRender
import LearnStore

/// Sketches in this device's local store, read for `export NAME`.
///
/// The store must never change because of an export — not even a schema
/// migration or WAL recovery. So the database is opened read-only, copied
/// with SQLite's backup API (a consistent snapshot even while the app is
/// writing), and the copy is what LocalStore opens.
enum StoredSketch {
    static func load(named name: String,
                     environment: [String: String] = ProcessInfo.processInfo.environment)
        throws(SketchIOError) -> SketchDocument {
        let storePath = StoreLocation.defaultPath(environment: environment)
        guard FileBytes.exists(storePath) else { throw .noStore(name: name, storePath: storePath) }

        let folder = FileManager.default.temporaryDirectory.path + "/teamsketch-export-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let copyPath = folder + "/" + StoreLocation.fileName
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try snapshot(storePath, to: copyPath)
            let store = try LocalStore(path: copyPath)
            defer { try? store.close() }
            guard let summary = try store.findSketch(named: name) else {
                throw SketchIOError.noStoredSketch(name: name, storePath: storePath)
            }
            return try store.loadSketch(summary.id)
        } catch let error as SketchIOError {
            throw error
        } catch let error as StoreError {
            throw .storeUnreadable(storePath: storePath, reason: reason(error))
        } catch let error as DatabaseError {
            throw .storeUnreadable(storePath: storePath, reason: reason(error))
        } catch {
            throw .storeUnreadable(storePath: storePath, reason: "\(error)")
        }
    }

    private static func snapshot(_ path: String, to copyPath: String) throws {
        var config = Configuration()
        config.readonly = true
        let source = try DatabaseQueue(path: path, configuration: config)
        defer { try? source.close() }
        let copy = try DatabaseQueue(path: copyPath)
        defer { try? copy.close() }
        try source.backup(to: copy)
    }

    /// StoreError's sentences name the file they opened, here the temporary
    /// copy; the user needs to hear about their store instead.
    private static func reason(_ error: StoreError) -> String {
        switch error {
        case .corrupt: "it is damaged or not a Teamsketch database. It was left unchanged."
        case .foreign: "it is a database of another program. It was left unchanged."
        case .tooNew: "it was saved by a newer version of Teamsketch. Please update the app."
        case .cannotOpen(_, let why): why
        default: error.description
        }
    }

    private static func reason(_ error: DatabaseError) -> String {
        switch error.resultCode {
        case .SQLITE_NOTADB, .SQLITE_CORRUPT: "it is damaged or not a Teamsketch database. It was left unchanged."
        case .SQLITE_CANTOPEN, .SQLITE_PERM, .SQLITE_AUTH: "it cannot be opened (\(error.message ?? "permission denied"))."
        case .SQLITE_BUSY, .SQLITE_LOCKED: "it is busy; try again in a moment."
        default: "\(error.message ?? "SQLite error \(error.resultCode.rawValue)")."
        }
    }
}
