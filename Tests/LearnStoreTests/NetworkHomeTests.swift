import Foundation
import LearnModel
import Testing
@testable import LearnStore

/// A pupil's store in a home folder on the school's network (NFS on Debian
/// Edu, SSHFS on LTSP clients): the store uses SQLite's rollback journal
/// there, never the write-ahead log, whose shared-memory index two
/// laptops cannot share; the same pupil's work moves with them from one
/// laptop to the next.
@Suite struct NetworkHomeTests {
    static let mountinfo = """
        22 1 259:1 / / rw,relatime shared:1 - ext4 /dev/vda1 rw
        40 22 0:50 / /home rw,relatime shared:20 - nfs4 server:/home rw,vers=4.2
        41 40 0:51 / /home/local\\040cache rw,relatime - ext4 /dev/vda2 rw
        47 22 0:41 / /mnt/lts rw,nosuid,nodev,relatime - fuse.sshfs root@server:/srv rw,user_id=0
        48 22 0:42 / /media/stick rw - vfat /dev/sdb1 rw
        broken line
        """

    @Test func theMountTableNamesEachPathsFileSystem() {
        let table = MountTable.parse(Self.mountinfo)
        #expect(table.mounts.count == 5)
        #expect(table.mount(holding: "/home/mia/.local/share/teamsketch/store.sqlite")?.type == "nfs4")
        #expect(table.mount(holding: "/home/local cache/mia")?.type == "ext4")
        #expect(table.mount(holding: "/homework")?.type == "ext4")
        #expect(table.mount(holding: "/mnt/lts/mia")?.type == "fuse.sshfs")
        #expect(table.mount(holding: "/media/stick")?.type == "vfat")
        #expect(MountTable.parse("").mount(holding: "/home") == nil)
    }

    /// A table that puts `folder` on NFS, the rest on a local disk.
    static func table(nfs folder: String) -> MountTable {
        let resolved = URL(fileURLWithPath: folder).resolvingSymlinksInPath().path
        return MountTable(mounts: [.init(point: "/", type: "ext4"), .init(point: resolved, type: "nfs")])
    }

    @Test func onANetworkHomeTheStoreKeepsNoWriteAheadLog() throws {
        try withStoreTempDirectory { dir in
            let home = dir + "/home"
            let path = home + "/.local/share/teamsketch/store.sqlite"
            let document = StoreFixture.document()
            // First on the laptop's own disk: the write-ahead log.
            do {
                let local = try LocalStore(path: path, fileSystems: MountTable(mounts: [.init(point: "/", type: "ext4")]))
                #expect(local.journal == .writeAheadLog)
                try local.createSketch(document.meta)
                try local.append(contentsOf: Array(document.ops.prefix(3)), to: document.meta.id)
                try local.close()
            }
            // Then the home moved to the school's NFS server.
            let store = try LocalStore(path: path, fileSystems: Self.table(nfs: home))
            #expect(store.journal == .rollback)
            try store.append(contentsOf: Array(document.ops.dropFirst(3)), to: document.meta.id)
            #expect(!storeFileExists(path + "-wal") && !storeFileExists(path + "-shm"))
            #expect(try store.loadSketch(document.meta.id) == document)
            #expect(try store.synchronousLevel() == 2)
            try store.close()
            // A check of the file itself: it says it is not in WAL mode.
            #expect(Array(storeFileBytes(path)!.prefix(20).suffix(2)) == [1, 1], "file format bytes 18–19: legacy (rollback) journal")
        }
    }
}

