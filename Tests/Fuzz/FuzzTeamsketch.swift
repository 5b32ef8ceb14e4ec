// libFuzzer target for `.teamsketch` files (SketchFileFormat.decode).
//
// Any input must either be refused with a SketchFileError or decode to a
// document that encodes and decodes to itself; a crash, a hang or an
// out-of-bounds access (AddressSanitizer) is a bug.
import Foundation
import LearnModel

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTeamsketch(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Data(bytes: $0, count: size) } ?? Data()
    guard let doc = try? SketchFileFormat.decode(bytes) else { return 0 }
    let again: SketchDocument
    do {
        again = try SketchFileFormat.decode(SketchFileFormat.encode(doc))
    } catch {
        fatalError("a decoded sketch does not encode and decode again: \(error)")
    }
    guard again == doc else { fatalError("a sketch changed through encoding and decoding") }
    return 0
}
