import CGtk
import Foundation
import TeamsketchCore

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

    /// Binds the text domain to the compiled catalogues, found like the
    /// app's other files (`ResourceLocator`): `$TEAMSKETCH_LOCALEDIR` when
    /// set; `.build/locale` (where `make` puts them) for a binary in the
    /// build tree; otherwise `locale/` beside each data directory the
    /// locator searches — `<dir>/teamsketch` → `<dir>/locale` — so an
    /// installed binary takes `PREFIX/share/locale` from its own prefix
    /// (`make install` puts them there), whatever the prefix is, then those
    /// of `$XDG_DATA_HOME` and `$XDG_DATA_DIRS`.
    static func setUp() {
        setlocale(LC_ALL, "")
        let dir = catalogueDirectory(environment: ProcessInfo.processInfo.environment,
                                     executableDirectory: executableDirectory(),
                                     locator: AppResources.locator)
        bindtextdomain(domain, dir)
        bind_textdomain_codeset(domain, "UTF-8")
        textdomain(domain)
    }

    /// The first candidate directory holding a German catalogue (the one
    /// translation there is), or /usr/share/locale when none does.
    static func catalogueDirectory(environment: [String: String], executableDirectory: String?,
                                   locator: ResourceLocator) -> String {
        var candidates: [String] = []
        if let dir = environment["TEAMSKETCH_LOCALEDIR"], !dir.isEmpty { candidates.append(dir) }
        if let exe = executableDirectory, ResourceLocator.buildTreeResources(executablePath: exe + "/x") != nil {
            // .build/debug is a link to .build/<triple>/debug, resolved here.
            candidates += [exe + "/../locale", exe + "/../../locale"]
        }
        let suffix = "/" + ResourceLocator.dataSubdirectory
        for data in locator.directories where data.hasSuffix(suffix) {
            candidates.append(String(data.dropLast(suffix.count)) + "/locale")
        }
        return candidates.first { FileManager.default.fileExists(atPath: $0 + "/de/LC_MESSAGES/\(domain).mo") }
            ?? "/usr/share/locale"
    }

    private static func executableDirectory() -> String? {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            .map { ($0 as NSString).deletingLastPathComponent }
    }
}
