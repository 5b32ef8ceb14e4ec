import CGtk
import Foundation

/// Every user-visible string goes through `_()` so xgettext (`-L C --keyword=_`)
/// finds it and translations in po/ apply.
func `_`(_ msgid: String) -> String {
    // gettext hands back its argument when there is no translation; that
    // pointer is only valid inside withCString.
    msgid.withCString { p in
        guard let t = ts_gettext(p), t != p else { return msgid }
        return String(cString: t)
    }
}

/// A string with a count in it, in the form the language uses for that
/// count (German and English: one for 1, the other for every other number;
/// other languages have more forms). xgettext finds it by `_n:1,2`.
func _n(_ one: String, _ many: String, _ count: Int) -> String {
    // Counts are never negative here; a negative one reads as "many".
    let n = UInt(clamping: count < 0 ? 2 : count)
    return one.withCString { o in
        many.withCString { m in
            guard let t = ts_ngettext(o, m, n) else { return count == 1 ? one : many }
            if t == o { return one }
            if t == m { return many }
            return String(cString: t)
        }
    }
}

enum Localization {
    static let domain = "teamsketch"

    /// Binds the text domain to the compiled catalogues: next to the build
    /// (`make` puts them in .build/locale) or the installed prefix
    /// (`make install` puts them in PREFIX/share/locale, beside PREFIX/bin).
    static func setUp() {
        setlocale(LC_ALL, "")
        let candidates = [
            ProcessInfo.processInfo.environment["TEAMSKETCH_LOCALEDIR"],
            executableDirectory().map { $0 + "/../locale" },
            executableDirectory().map { $0 + "/../../locale" },
            executableDirectory().map { $0 + "/../share/locale" },
            "/usr/local/share/locale",
            "/usr/share/locale",
        ].compactMap { $0 }
        let dir = candidates.first { FileManager.default.fileExists(atPath: $0 + "/de/LC_MESSAGES/\(domain).mo") }
            ?? "/usr/share/locale"
        bindtextdomain(domain, dir)
        bind_textdomain_codeset(domain, "UTF-8")
        textdomain(domain)
    }

    private static func executableDirectory() -> String? {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            .map { ($0 as NSString).deletingLastPathComponent }
    }
}
