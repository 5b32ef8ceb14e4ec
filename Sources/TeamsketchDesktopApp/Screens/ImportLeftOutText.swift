import Foundation
import LearnModel

/// The sentence that tells what an imported file held and the sketch could
/// not: "2 text boxes and 1 image were not imported." Pure (gettext only), so
/// tests read it without a window; nil when nothing was left out.
enum ImportLeftOutText {
    static func sentence(_ leftOut: ImportLeftOut) -> String? {
        var parts: [(count: Int, text: String)] = []
        func add(_ count: Int, _ text: (Int) -> String) {
            if count > 0 { parts.append((count, text(count))) }
        }
        add(leftOut.texts) { String(format: _n("%d text box", "%d text boxes", $0), $0) }
        add(leftOut.images) { String(format: _n("%d image", "%d images", $0), $0) }
        add(leftOut.texFormulas) { String(format: _n("%d TeX formula", "%d TeX formulas", $0), $0) }
        add(leftOut.pages) { String(format: _n("%d more page", "%d more pages", $0), $0) }

        var sentences: [String] = []
        if let last = parts.last {
            let list = parts.count == 1 ? last.text
                : String(format: `_`("%@ and %@"),
                         parts.dropLast().map(\.text).joined(separator: `_`(", ")), last.text)
            // "1 image was", but "2 images were" and "1 text box and 1 image were".
            let verbCount = parts.count == 1 ? last.count : parts.count
            sentences.append(String(format: _n("%@ was not imported.", "%@ were not imported.", verbCount), list))
        }
        if leftOut.unknownColors > 0 {
            let n = leftOut.unknownColors
            sentences.append(String(format: _n("%d stroke of an unknown colour was drawn in black.",
                                               "%d strokes of an unknown colour were drawn in black.", n), n))
        }
        if leftOut.mendedPressure > 0 {
            let n = leftOut.mendedPressure
            sentences.append(String(format: _n("%d stroke had points without pressure; those points were left out, as Xournal++ does.",
                                               "%d strokes had points without pressure; those points were left out, as Xournal++ does.", n), n))
        }
        return sentences.isEmpty ? nil : sentences.joined(separator: " ")
    }
}
