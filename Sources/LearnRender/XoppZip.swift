import Foundation
import LearnModel
import ZIPFoundation

/// The packaged `.xopp` of recent Xournal++: a zip archive holding
/// `mimetype` ("application/xournal++"), `META-INF/version` and the document
/// as `content.xml`, beside attachments (images, PDF, audio) we do not read.
/// Only `content.xml` is extracted, under the same cap as a gzip file's XML.
public enum XoppZip {
    public struct Failure: Error, Equatable, CustomStringConvertible {
        public var description: String
    }

    /// The entry holding the document (Xournal++'s LoadHandler opens this name).
    public static let documentEntry = "content.xml"
    /// More entries than a page's attachments ever need; the central
    /// directory is not walked past this.
    public static let maxEntries = 10_000

    /// A zip's local file header signature, `PK\u{3}\u{4}`.
    public static func isZip(_ bytes: [UInt8]) -> Bool {
        bytes.count >= 4 && bytes[0] == 0x50 && bytes[1] == 0x4B && bytes[2] == 0x03 && bytes[3] == 0x04
    }

    /// The bytes of `content.xml`. Refused before anything is extracted when
    /// the archive has more than `maxEntries` entries, or its entries claim
    /// more than `limit` bytes unpacked in all; refused while extracting when
    /// the entry unpacks to more than `limit` whatever it claimed.
    public static func document(_ bytes: [UInt8], limit: Int = Gzip.defaultLimit,
                                maxEntries: Int = maxEntries) throws(Failure) -> [UInt8] {
        let archive: Archive
        do {
            archive = try Archive(data: Data(bytes), accessMode: .read)
        } catch {
            throw Failure(description: "the zip archive is damaged (\(error))")
        }
        var found: Entry?
        var count = 0
        var claimed: UInt64 = 0
        for entry in archive {
            count += 1
            guard count <= maxEntries else {
                throw Failure(description: "the zip archive holds more than \(maxEntries) files, more than any "
                    + "Xournal++ document")
            }
            let (sum, overflow) = claimed.addingReportingOverflow(entry.uncompressedSize)
            guard !overflow, sum <= UInt64(limit) else { throw tooBig(limit) }
            claimed = sum
            if found == nil, entry.type == .file, entry.path == documentEntry { found = entry }
        }
        guard let entry = found else {
            throw Failure(description: "the zip archive holds no \(documentEntry), so it is not a Xournal++ document")
        }
        var output: [UInt8] = []
        // What the entry claims is never trusted for memory beyond a guess from the file's size.
        output.reserveCapacity(min(Int(entry.uncompressedSize), bytes.count.multipliedReportingOverflow(by: 16).partialValue))
        var overLimit = false
        let checksum: CRC32
        do {
            checksum = try archive.extract(entry, skipCRC32: false) { chunk in
                guard chunk.count <= limit - output.count else {
                    overLimit = true
                    throw Stop()
                }
                output.append(contentsOf: chunk)
            }
        } catch {
            if overLimit { throw tooBig(limit) }
            throw Failure(description: "\(documentEntry) in the zip archive is damaged (\(error))")
        }
        guard checksum == entry.checksum, output.count == Int(entry.uncompressedSize) else {
            throw Failure(description: "\(documentEntry) in the zip archive is damaged (its checksum or size is wrong)")
        }
        return output
    }

    private struct Stop: Error {}

    private static func tooBig(_ limit: Int) -> Failure {
        Failure(description: "it would unpack to more than \(limit >> 20) MB, more than any sketch holds")
    }
}
