import Foundation

/// The locale dates are written in. Foundation on Linux does not read the
/// POSIX environment (it answers an English locale whatever LANG says), so
/// a German classroom saw "26 Nov 2026 at 10:54 PM" beside German words.
/// This reads the environment as setlocale does for times: LC_ALL, else
/// LC_TIME, else LANG (the first set and not empty); C and POSIX, or
/// nothing set, are English.
public enum FormatLocale {
    public static func from(environment: [String: String]) -> Locale {
        func value(_ name: String) -> String? { environment[name].flatMap { $0.isEmpty ? nil : $0 } }
        let name = value("LC_ALL") ?? value("LC_TIME") ?? value("LANG") ?? "C"
        // "de_AT.UTF-8@euro" → "de_AT"; anything odd → English.
        let base = String(name.prefix { $0.isLetter || $0 == "_" })
        let parts = base.split(separator: "_", omittingEmptySubsequences: false)
        guard base != "C", base != "POSIX", let language = parts.first, (2...3).contains(language.count),
              parts.count <= 2, parts.dropFirst().allSatisfy({ (2...3).contains($0.count) })
        else { return Locale(identifier: "en_US_POSIX") }
        return Locale(identifier: base)
    }

    /// This process's: the environment does not change while it runs.
    public static let current = from(environment: ProcessInfo.processInfo.environment)

    /// A formatter for dates and times as the classroom writes them.
    public static func dateFormatter(date: DateFormatter.Style, time: DateFormatter.Style,
                                     locale: Locale = current) -> DateFormatter {
        let f = DateFormatter()
        f.locale = locale
        f.dateStyle = date
        f.timeStyle = time
        return f
    }
}
