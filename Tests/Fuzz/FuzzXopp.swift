// libFuzzer target for opening `.xopp` files: the bytes go through
// Gzip.decompress when they are gzip (as XoppFile does), then
// XoppFormat.parse.
//
// Any input must either be refused with an error or give an import that
// writes out as a `.xopp` which parses again with the same number of
// strokes; a crash, a hang, an out-of-bounds access (AddressSanitizer) or
// an unbounded allocation is a bug.
import Foundation
import LearnModel

/// Smaller than the app's limit, so a fuzzer's zip bomb costs milliseconds;
/// the limit's own check is the same code at any size.
private let inflateLimit = 4 << 20

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzXopp(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    var bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    if Gzip.isGzip(bytes) {
        guard let xml = try? Gzip.decompress(bytes, limit: inflateLimit) else { return 0 }
        bytes = xml
    }
    guard let imported = try? XoppFormat.parse(bytes) else { return 0 }
    let written = XoppFormat.export(imported.document(name: "fuzz", createdAt: fuzzEpoch))
    let again: XoppImport
    do {
        again = try XoppFormat.parse(written)
    } catch {
        fatalError("an imported sketch writes a .xopp that does not parse: \(error)")
    }
    guard again.strokes.count == imported.strokes.count else {
        fatalError("\(imported.strokes.count) strokes read, \(again.strokes.count) after writing and reading")
    }
    return 0
}
