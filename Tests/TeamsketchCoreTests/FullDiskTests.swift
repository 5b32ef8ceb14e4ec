import Foundation
import LearnModel
import LearnStore
import TeamsketchCore
import TeamsketchTestSupport
import Testing

/// A real full disk and a real read-only disk, not a stand-in: a small
/// tmpfs, and an ext4 image on a loop device that the kernel turns
/// read-only under the open store, mounted for the test (mounting needs
/// root, which `make test` and CI have).
@Suite(.serialized, .enabled(if: getuid() == 0, "mounting a tmpfs needs root"))
@MainActor
struct FullDiskTests {
    /// An ext4 file system in an image file, mounted with
    /// `errors=remount-ro` as distributions do: after `fail()` the kernel
    /// makes it read-only while files stay open, as when a disk goes bad.
    final class Ext4Disk {
        let image: String
        let path: String
        init(megabytes: Int) async throws {
            let base = FileManager.default.temporaryDirectory.path + "/teamsketch-ext4-" + UUID().uuidString
            image = base + ".img"
            path = base
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            FileManager.default.createFile(atPath: image, contents: nil)
            let h = try FileHandle(forWritingTo: URL(fileURLWithPath: image))
            try h.truncate(atOffset: UInt64(megabytes) << 20)
            try h.close()
            try await TinyDisk.run("/sbin/mkfs.ext4", ["-q", "-F", image])
            try await mount()
        }
        func mount() async throws { try await TinyDisk.run("/bin/mount", ["-o", "loop,errors=remount-ro", image, path]) }
        func unmount() async throws { try await TinyDisk.run("/bin/umount", [path]) }
        /// Reports a file-system error through ext4's own test hook.
        func fail() throws {
            let source = try String(contentsOfFile: "/proc/self/mounts", encoding: .utf8)
                .split(separator: "\n").map { $0.split(separator: " ") }
                .first { $0.count > 1 && $0[1] == path }?.first
            let device = try #require(source).split(separator: "/").last.map(String.init)
            try Data("teamsketch test\n".utf8).write(to: URL(fileURLWithPath: "/sys/fs/ext4/\(try #require(device))/trigger_fs_error"))
        }
        deinit {
            TinyDisk.detach(path)
            try? FileManager.default.removeItem(atPath: image)
        }
    }

    private func stroke(_ i: Int) -> SketchOp {
        .addStroke(polylineStroke([Point(Double(i), 10), Point(Double(i) + 50, 60), Point(Double(i) + 90, 20)]))
    }

    private func storedIDs(_ path: String, _ id: UUID) throws -> [UUID] {
        let store = try LocalStore(path: path)
        defer { try? store.close() }
        return try store.loadSketch(id).ops.compactMap { if case .addStroke(let s) = $0 { s.id } else { nil } }
    }

    @Test func aFullDiskIsReportedOnceAndEveryStrokeIsStoredOnceSpaceReturns() async throws {
        let disk = try await TinyDisk(kilobytes: 8192)
        let dbPath = disk.path + "/teamsketch.sqlite"
        let store = try LocalStore(path: dbPath)
        let meta = SketchMeta(name: "Voll", createdAt: sketchDate(0))
        let saver = SketchSaver(store: .live(store), sketch: meta)
        var ops: [SketchOp] = []
        for i in 0..<5 {
            ops.append(stroke(i))
            #expect(saver.append(ops[i]) == nil)
        }
        let filler = disk.fill()
        var reports = 0
        for i in 5..<40 {
            ops.append(stroke(i))
            if saver.append(ops[i]) != nil { reports += 1 }
        }
        #expect(reports == 1)
        #expect(!saver.unsaved.isEmpty)
        let storedWhileFull = saver.storedOps ?? -1
        #expect(storedWhileFull >= 5 && storedWhileFull < ops.count)
        // The app quits while the disk is full; later there is room again.
        try? store.close()
        try FileManager.default.removeItem(atPath: filler)
        // The count was what the store really held, read back from the file:
        // exactly the first ops, in order, none twice.
        let ids = ops.map { op -> UUID in if case .addStroke(let s) = op { s.id } else { UUID() } }
        #expect(try storedIDs(dbPath, meta.id) == Array(ids[..<storedWhileFull]))

        let reopened = try LocalStore(path: dbPath)
        let resumed = SketchSaver(store: .live(reopened), sketch: meta, storedOps: storedWhileFull)
        for op in ops[storedWhileFull...] { _ = resumed.append(op) }
        #expect(resumed.unsaved.isEmpty)
        try reopened.close()
        #expect(try storedIDs(dbPath, meta.id) == ids)
    }

    @Test func aRetryAfterSpaceReturnsStoresWhatWaitedWithoutANewStroke() async throws {
        let disk = try await TinyDisk(kilobytes: 8192)
        let dbPath = disk.path + "/teamsketch.sqlite"
        let store = try LocalStore(path: dbPath)
        let meta = SketchMeta(name: "Warten", createdAt: sketchDate(0))
        let saver = SketchSaver(store: .live(store), sketch: meta)
        #expect(saver.append(stroke(0)) == nil)
        let filler = disk.fill()
        var ops = [stroke(0)]
        for i in 1..<30 {
            ops.append(stroke(i))
            _ = saver.append(ops[i])
        }
        #expect(!saver.unsaved.isEmpty)
        try FileManager.default.removeItem(atPath: filler)
        #expect(saver.retry() == nil)
        #expect(saver.unsaved.isEmpty)
        #expect(saver.storedOps == ops.count)
        try store.close()
        #expect(try storedIDs(dbPath, meta.id).count == ops.count)
    }

    @Test func aDiskThatTurnsReadOnlyIsReportedOnceAndLosesNothingThatWasStored() async throws {
        let disk = try await Ext4Disk(megabytes: 16)
        let dbPath = disk.path + "/teamsketch.sqlite"
        let store = try LocalStore(path: dbPath)
        let meta = SketchMeta(name: "Nur lesen", createdAt: sketchDate(0))
        let saver = SketchSaver(store: .live(store), sketch: meta)
        var ops: [SketchOp] = []
        for i in 0..<5 {
            ops.append(stroke(i))
            #expect(saver.append(ops[i]) == nil)
        }
        try disk.fail()
        #expect(!FileManager.default.createFile(atPath: disk.path + "/probe", contents: Data([1])),
                "the kernel made the disk read-only")
        var reports = 0
        for i in 5..<25 {
            ops.append(stroke(i))
            if saver.append(ops[i]) != nil { reports += 1 }
        }
        #expect(saver.retry() == nil, "already reported")
        #expect(reports == 1)
        // Drawing went on in memory: every stroke is either stored or waits.
        #expect(saver.storedOps == 5)
        #expect(saver.unsaved == Array(ops[5...]))
        try? store.close()
        // Mounted again (after the disk was checked): exactly what was stored.
        try await disk.unmount()
        try await disk.mount()
        let ids = ops.map { op -> UUID in if case .addStroke(let s) = op { s.id } else { UUID() } }
        #expect(try storedIDs(dbPath, meta.id) == Array(ids[..<5]))
        let reopened = try LocalStore(path: dbPath)
        let resumed = SketchSaver(store: .live(reopened), sketch: meta, storedOps: 5)
        for op in saver.unsaved { #expect(resumed.append(op) == nil) }
        try reopened.close()
        #expect(try storedIDs(dbPath, meta.id) == ids)
    }
}
