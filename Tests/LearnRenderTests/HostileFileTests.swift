import Foundation
import Testing
import LearnModel
@testable import LearnRender
import TeamsketchTestSupport

/// Files from USB sticks and e-mail: memory spent on one is bounded before it
/// is allocated, and the refusal says why.
@Suite struct HostileFileTests {
    @Test func aGzipBombIsRefusedAtTheLimitWithAMessage() throws {
        let spaces = [UInt8](repeating: 0x20, count: 10_000_000)
        let bomb = try Gzip.compress(spaces)
        #expect(bomb.count < 50_000)
        do {
            _ = try Gzip.decompress(bomb, limit: 1_000_000)
            Issue.record("inflated past the limit")
        } catch {
            #expect(error.description.contains("more than"))
        }
        // Under the limit the same data is fine.
        #expect(try Gzip.decompress(bomb, limit: 10_000_000).count == 10_000_000)
    }

    @Test func aGzipTrailerThatLiesAboutTheSizeChangesNothing() throws {
        let text = Array("<xournal/>".utf8)
        var packed = try Gzip.compress(text)
        let n = packed.count
        // ISIZE says 2 GiB - 1 bytes.
        packed[n - 4] = 0xFF; packed[n - 3] = 0xFF; packed[n - 2] = 0xFF; packed[n - 1] = 0x7F
        #expect(throws: Gzip.Failure.self) { try Gzip.decompress(packed) }
    }

    @Test func theDefaultInflateLimitIsTheSketchLimit() throws {
        #expect(Gzip.defaultLimit == SketchLimits.maxInflatedBytes)
    }

    @Test func aFileOverTheSizeLimitIsNotRead() throws {
        let dir = TempDir()
        let path = dir.file("big.xopp")
        try Data(repeating: 0x20, count: 2_000_000).write(to: URL(fileURLWithPath: path))
        do {
            _ = try FileBytes.read(path, limit: 1_000_000)
            Issue.record("read a file over the limit")
        } catch {
            guard case .tooLarge(let p, let limit) = error else { Issue.record("wrong error \(error)"); return }
            #expect(p == path && limit == 1_000_000)
            #expect(error.description.contains("too large"))
        }
        #expect(try FileBytes.read(path, limit: 2_000_000).count == 2_000_000)
    }

    @Test func anXoppWhoseXMLWouldBeHugeIsRefusedWithAMessage() throws {
        let dir = TempDir()
        let path = dir.file("bomb.xopp")
        var xml = Array("<xournal><page width=\"10\" height=\"10\">".utf8)
        xml += [UInt8](repeating: 0x20, count: SketchLimits.maxInflatedBytes + 1)
        xml += Array("</page></xournal>".utf8)
        try Data(try Gzip.compress(xml)).write(to: URL(fileURLWithPath: path))
        do {
            _ = try XoppFile.read(path)
            Issue.record("opened a gzip bomb")
        } catch {
            #expect(error.description.contains("more than"))
        }
    }
}

/// A sketch already stored before the import limits existed may hold an
/// impossible canvas; drawing or exporting it must fail with a message, never
/// trap (the gallery draws thumbnails on every launch).
@Suite struct ImpossibleCanvasTests {
    private func doc(width: Double, height: Double) -> SketchDocument {
        SketchDocument(meta: SketchMeta(name: "x", width: width, height: height, createdAt: Fixture.date),
                       ops: [.addStroke(Fixture.dot(at: Point(5, 5), color: PenColor.red.rgba, width: 4))])
    }

    @Test func aPageOfHeightHundredMillionGivesNoThumbnailButNoTrap() {
        #expect(throws: SketchIOError.self) { try SketchExport.pngData(doc(width: 612, height: 1e8), width: 320) }
    }

    @Test func aCanvasWidthNearTenToTheNineteenDoesNotTrapInPNGExport() {
        #expect(throws: SketchIOError.self) { try SketchExport.data(doc(width: 1e19, height: 1000), as: .png) }
        #expect(throws: SketchIOError.self) { try SketchExport.pngData(doc(width: 1600, height: 1e19), width: 320) }
        #expect(throws: SketchIOError.self) { try SketchExport.pngData(doc(width: 1600, height: .nan), width: 320) }
    }

    @Test func anImageTooLargeForCairoIsAnErrorNotATrap() {
        #expect(throws: SketchIOError.self) { try CairoImage(width: Int(Int32.max) + 1, height: 10) }
        #expect(throws: SketchIOError.self) { try CairoImage(width: 10, height: -5) }
    }
}
