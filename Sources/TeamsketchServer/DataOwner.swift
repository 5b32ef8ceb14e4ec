import ArgumentParser
import Foundation

/// Under systemd the server runs as a user of its own (DynamicUser=) and
/// owns the SQLite folder; an administrator runs the other commands as
/// root. A database file, or a journal beside it, that root made would be
/// one the server cannot write: so a command that writes the database
/// becomes the folder's owner first (`create-teacher`), and one that must
/// read root's files (the backup `restore` reads) hands what it made to
/// that owner afterwards. Outside a service (a terminal, tests) the
/// folder is the caller's own and nothing changes.
struct DataOwner {
    var uid: uid_t
    var gid: gid_t

    /// The owner of the folder of `path`, when the caller is root and the
    /// folder is someone else's.
    static func of(sqlite path: String) -> DataOwner? {
        guard geteuid() == 0 else { return nil }
        let folder = (path as NSString).deletingLastPathComponent
        var info = stat()
        guard stat(folder.isEmpty ? "." : folder, &info) == 0, info.st_uid != 0 else { return nil }
        return DataOwner(uid: info.st_uid, gid: info.st_gid)
    }

    /// Becomes the owner for the rest of the process.
    func become() throws {
        guard setgroups(0, nil) == 0, setgid(gid) == 0, setuid(uid) == 0 else {
            throw ValidationError("Cannot act as the owner (uid \(uid)) of the database's folder: \(String(cString: strerror(errno))).")
        }
    }

    /// Gives a file root made to the owner.
    func take(_ path: String) throws {
        guard chown(path, uid, gid) == 0 else {
            throw ValidationError("Cannot give \(path) to the owner (uid \(uid)) of its folder: \(String(cString: strerror(errno))).")
        }
    }
}
