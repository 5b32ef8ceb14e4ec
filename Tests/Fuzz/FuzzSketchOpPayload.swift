// libFuzzer target for op payloads (SketchOpPayload.decode), the JSON every
// device and the school server read for each op pulled, pushed or opened.
//
// Any input must either be refused or give an op that encodes and decodes
// to itself; a crash, a hang or an out-of-bounds access (AddressSanitizer)
// is a bug.
import Foundation
import LearnModel

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSketchOpPayload(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Data(bytes: $0, count: size) } ?? Data()
    guard let op = SketchOpPayload.decode(bytes) else { return 0 }
    let encoded: Data
    do {
        encoded = try SketchOpPayload.encode(op)
    } catch {
        fatalError("a decoded op does not encode: \(error)")
    }
    guard SketchOpPayload.decode(encoded) == op else {
        fatalError("an op changed through encode and decode: \(op) → \(String(decoding: encoded, as: UTF8.self))")
    }
    return 0
}
