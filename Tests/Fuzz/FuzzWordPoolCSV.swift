// libFuzzer target for word-pool CSV files (WordPoolCSV.importItems).
//
// Any input must either be refused or import to words that export and
// import to themselves, with no row errors the second time; a crash, a
// hang or an out-of-bounds access (AddressSanitizer) is a bug.
import Foundation
import LearnModel

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzWordPoolCSV(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Data(bytes: $0, count: size) } ?? Data()
    guard let imported = try? WordPoolCSV.importItems(bytes) else { return 0 }
    let again: WordPoolCSV.Import
    do {
        again = try WordPoolCSV.importItems(WordPoolCSV.exportData(imported.items))
    } catch {
        fatalError("imported words export to a CSV that is refused: \(error)")
    }
    guard again.items == imported.items, again.errors.isEmpty else {
        fatalError("words changed through export and import: \(imported.items) → \(again.items), \(again.errors)")
    }
    return 0
}
