import Crypto
import Foundation

/// The gallery's cookies. The session cookie holds the same kind of token
/// the API hands out (so a page and an API call are allowed exactly the
/// same things), is HttpOnly (no script reads it), SameSite=Lax (another
/// site's form never carries it) and Secure whenever the server speaks
/// TLS; it is valid only under /gallery.
enum WebCookies {
    static let session = "ts_session"
    /// A random value a sign-in form repeats in a hidden field: a form
    /// posted from elsewhere cannot know it (double-submit).
    static let form = "ts_form"
    static let language = "ts_lang"
    /// The browser's device mark (`Teamsketch-Device`): a class's names are
    /// shown to a browser where one of its pupils signed in, or that was
    /// given the class's code.
    static let device = "ts_device"
    static let path = "/gallery"

    /// The request's cookies by name; a header is read up to 4 KiB and 30
    /// cookies, the first of a name counting.
    static func parse(_ header: String?) -> [String: String] {
        var found: [String: String] = [:]
        for pair in (header ?? "").utf8.prefix(4096).split(separator: UInt8(ascii: ";")).prefix(30) {
            let halves = pair.split(separator: UInt8(ascii: "="), maxSplits: 1)
            guard halves.count == 2 else { continue }
            let name = String(decoding: halves[0], as: UTF8.self).trimmingSpaces
            if found[name] == nil { found[name] = String(decoding: halves[1], as: UTF8.self).trimmingSpaces }
        }
        return found
    }

    static func set(_ name: String, _ value: String, secure: Bool, maxAge: Int? = nil) -> String {
        var cookie = "\(name)=\(value); Path=\(path); HttpOnly; SameSite=Lax"
        if let maxAge { cookie += "; Max-Age=\(maxAge)" }
        if secure { cookie += "; Secure" }
        return cookie
    }

    static func clear(_ name: String, secure: Bool) -> String { set(name, "", secure: secure, maxAge: 0) }

    /// The hidden field of a signed-in visitor's forms: derived from their
    /// session token, which another site cannot read, so it cannot be forged.
    static func formToken(session: String) -> String {
        SHA256.hash(data: Data(("teamsketch-web-form\u{0}" + session).utf8)).map { String(format: "%02x", $0) }.joined()
    }

    static func randomValue() -> String {
        (0..<16).map { _ in String(format: "%02x", UInt8.random(in: 0...255)) }.joined()
    }

    /// Compares without stopping at the first difference.
    static func same(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        guard x.count == y.count, !x.isEmpty else { return false }
        return zip(x, y).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
