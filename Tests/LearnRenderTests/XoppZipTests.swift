import Foundation
import LearnModel
import TeamsketchTestSupport
import Testing
@testable import LearnRender

/// The packaged `.xopp` of recent Xournal++ (a zip archive holding
/// `content.xml`), with the files in Tests/xopp (see its README).
@Suite struct XoppZipTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../xopp").standardizedFileURL

    static func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
    static func fixture(_ name: String) throws -> [UInt8] { try FileBytes.read(path(name)) }

    /// What an import shows, without the ids and times each import makes anew.
    static func ink(_ imported: XoppImport) -> [String] {
        imported.strokes.map { "\($0.color) \($0.width) \($0.start) \($0.segments)" }
    }

    @Test func aPackagedXoppImportsLikeItsGzipTwin() throws {
        let dir = TempDir()
        let zipPath = dir.file("Tafel.xopp"), gzipPath = dir.file("Tafel-gzip.xopp")
        let zipped = try Self.fixture("packaged.xopp")
        try FileBytes.write(zipped, to: zipPath)
        try FileBytes.write(Gzip.compress(Self.fixture("features.xopp")), to: gzipPath)

        let fromZip = try XoppFile.importing(FileBytes.read(zipPath), path: zipPath)
        let fromGzip = try XoppFile.importing(FileBytes.read(gzipPath), path: gzipPath)
        #expect(fromZip.strokes.count == 4)
        #expect(Self.ink(fromZip) == Self.ink(fromGzip))
        #expect(fromZip.leftOut == fromGzip.leftOut)
        #expect(fromZip.pageWidth == fromGzip.pageWidth && fromZip.pageHeight == fromGzip.pageHeight)

        let doc = try SketchImport.read(zipPath)
        #expect(doc.meta.name == "Tafel")
        #expect(doc.strokes.count == 4)
    }

    @Test func aZipWithoutAnExtensionIsRecognisedByItsFirstBytes() throws {
        let dir = TempDir()
        let path = dir.file("Tafelbild")
        try FileBytes.write(Self.fixture("packaged.xopp"), to: path)
        #expect(SketchImport.sniff(try Self.fixture("packaged.xopp")) == .xopp)
        #expect(try SketchImport.read(path).strokes.count == 4)
    }

    @Test func aTruncatedZipIsDamaged() throws {
        let zipped = try Self.fixture("packaged.xopp")
        let error = Self.failure(Array(zipped.prefix(zipped.count / 2)))
        #expect(error?.description.contains("zip archive is damaged") == true, "\(String(describing: error))")
    }

    @Test func aZipWithoutTheDocumentIsNoXournalDocument() throws {
        let error = Self.failure(try Self.fixture("no-content.xopp"))
        #expect(error?.description.contains("holds no content.xml") == true, "\(String(describing: error))")
    }

    @Test func entriesClaimingMoreThanTheCapAreRefusedBeforeExtracting() throws {
        let zipped = try Self.fixture("packaged.xopp")
        #expect(throws: XoppZip.Failure.self) { try XoppZip.document(zipped, limit: 500) }
        do {
            _ = try XoppZip.document(zipped, limit: 500)
        } catch {
            #expect(error.description.contains("would unpack to more than"))
        }
        #expect(try XoppZip.document(zipped).count == Self.fixture("features.xopp").count)
    }

    @Test func tooManyEntriesAreRefused() throws {
        let zipped = try Self.fixture("packaged.xopp")
        do {
            _ = try XoppZip.document(zipped, maxEntries: 2)
            Issue.record("three entries passed a cap of two")
        } catch {
            #expect(error.description.contains("more than 2 files"))
        }
    }

    /// A zip bomb that lies about its size: the cap holds while inflating,
    /// and under the cap the wrong size is damage.
    @Test func anEntryUnpackingToMoreThanItClaimsIsStopped() throws {
        let bomb = try Self.fixture("lying-size.xopp")
        do {
            _ = try XoppZip.document(bomb, limit: 1 << 16)
            Issue.record("a 1 MB entry passed a 64 kB cap")
        } catch {
            #expect(error.description.contains("would unpack to more than"))
        }
        let error = Self.failure(bomb)
        #expect(error?.description.contains("its checksum or size is wrong") == true, "\(String(describing: error))")
    }

    /// The error reading `bytes` as a `.xopp` file gives, nil when it opened.
    static func failure(_ bytes: [UInt8]) -> SketchIOError? {
        do {
            _ = try XoppFile.decode(bytes, path: "Tafel.xopp")
            return nil
        } catch {
            guard case .notASketch(let path, _) = error, path == "Tafel.xopp" else { return nil }
            return error
        }
    }
}
