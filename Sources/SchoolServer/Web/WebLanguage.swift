/// The language of the gallery's pages: the one a visitor chose (a cookie
/// set by the language links), else the first of the browser's languages
/// the gallery speaks, else English.
enum WebLanguage: String, CaseIterable, Sendable {
    case en, de

    /// This language's one of a pair of words (every text the gallery
    /// says comes in both).
    func text(of words: (en: String, de: String)) -> String {
        switch self {
        case .en: words.en
        case .de: words.de
        }
    }

    static func pick(chosen: String?, acceptLanguage: String?) -> WebLanguage {
        if let chosen, let language = WebLanguage(rawValue: chosen) { return language }
        return fromAcceptLanguage(acceptLanguage ?? "") ?? .en
    }

    /// `de-AT;q=0.8, en;q=0.5`: the known language with the highest weight
    /// (the first of equal ones). A header is read up to 512 bytes and 20
    /// entries; what does not parse is passed over.
    static func fromAcceptLanguage(_ header: String) -> WebLanguage? {
        var best: (language: WebLanguage, weight: Double)?
        for entry in header.utf8.prefix(512).split(separator: UInt8(ascii: ",")).prefix(20) {
            let parts = entry.split(separator: UInt8(ascii: ";"))
            guard let tag = parts.first.flatMap({ String(decoding: $0, as: UTF8.self) }) else { continue }
            let primary = tag.trimmingSpaces.split(separator: "-").first.map { $0.lowercased() } ?? ""
            guard let language = WebLanguage(rawValue: primary) else { continue }
            var weight = 1.0
            for parameter in parts.dropFirst() {
                let text = String(decoding: parameter, as: UTF8.self).trimmingSpaces
                if text.hasPrefix("q="), let q = Double(text.dropFirst(2)), q.isFinite { weight = min(1, max(0, q)) }
            }
            if weight > 0, weight > (best?.weight ?? 0) { best = (language, weight) }
        }
        return best?.language
    }
}

extension String {
    var trimmingSpaces: String {
        var s = Substring(self)
        while s.first == " " || s.first == "\t" { s = s.dropFirst() }
        while s.last == " " || s.last == "\t" { s = s.dropLast() }
        return String(s)
    }
}
