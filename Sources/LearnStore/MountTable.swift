import Foundation

/// Which file system a path is on, from the kernel's mount table
/// (/proc/self/mountinfo). A school's network homes (NFS on Debian Edu,
/// SSHFS on LTSP clients, SMB shares) cannot keep SQLite's write-ahead
/// log safe: its index is shared memory, which two machines never share.
/// The store asks here before it picks its journal.
public struct MountTable: Sendable, Equatable {
    public struct Mount: Sendable, Equatable {
        public var point: String
        public var type: String
    }

    public var mounts: [Mount]

    public init(mounts: [Mount]) { self.mounts = mounts }

    /// File systems whose files another machine may open at the same time.
    static let networkTypes: Set<String> = [
        "nfs", "nfs4", "cifs", "smb3", "smbfs", "9p", "ceph", "glusterfs", "afs", "lustre", "gfs2", "ocfs2",
        "fuse.sshfs", "fuse.gvfsd-fuse", "fuse.rclone", "fuse.s3fs", "fuse.glusterfs", "fuse.cephfs", "fuse.davfs2",
    ]

    /// A mount table is a few KiB; a bigger one is read no further.
    static let maxBytes = 1 << 20

    /// The table of this process's mount namespace (none readable: empty,
    /// and every path counts as local, as before).
    public static var live: MountTable {
        guard let handle = FileHandle(forReadingAtPath: "/proc/self/mountinfo") else { return MountTable(mounts: []) }
        defer { try? handle.close() }
        let bytes = (try? handle.read(upToCount: maxBytes)) ?? nil
        return parse(String(decoding: bytes ?? Data(), as: UTF8.self))
    }

    /// mountinfo's lines: `id parent major:minor root point options
    /// [optional…] - type source superoptions`, with spaces in names
    /// written as octal escapes. Lines that do not fit are skipped.
    public static func parse(_ text: String) -> MountTable {
        var mounts: [Mount] = []
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: false)
            guard fields.count >= 7, let dash = fields.firstIndex(of: "-"), dash >= 6, dash + 1 < fields.count else { continue }
            mounts.append(Mount(point: unescape(fields[4]), type: String(fields[dash + 1])))
        }
        return MountTable(mounts: mounts)
    }

    private static func unescape(_ field: Substring) -> String {
        var bytes: [UInt8] = []
        var rest = Array(field.utf8)[...]
        while let byte = rest.first {
            if byte == UInt8(ascii: "\\"), rest.count >= 4,
               let value = UInt8(String(decoding: rest.dropFirst().prefix(3), as: UTF8.self), radix: 8) {
                bytes.append(value)
                rest = rest.dropFirst(4)
            } else {
                bytes.append(byte)
                rest = rest.dropFirst()
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The mount holding `path` (absolute): the last-mounted of those
    /// whose point is the longest leading part of it.
    public func mount(holding path: String) -> Mount? {
        let components = (path as NSString).standardizingPath.split(separator: "/")
        var best: Mount?
        var bestLength = -1
        for mount in mounts {
            let point = mount.point.split(separator: "/")
            guard point.count <= components.count, Array(components.prefix(point.count)) == point,
                  point.count >= bestLength else { continue }
            best = mount
            bestLength = point.count
        }
        return best
    }

    /// Whether `path` (or, when it does not exist yet, the folder it
    /// will be in) is on a network file system. Links are followed, so a
    /// home that links into a share counts as the share.
    public func isOnNetwork(_ path: String) -> Bool {
        var probe = path
        while !probe.isEmpty, probe != "/", !FileManager.default.fileExists(atPath: probe) {
            probe = (probe as NSString).deletingLastPathComponent
        }
        let resolved = URL(fileURLWithPath: probe).resolvingSymlinksInPath().path
        return mount(holding: resolved).map { Self.networkTypes.contains($0.type) } ?? false
    }
}
