import Foundation

/// What a user typed into "join by code": a join code or an address.
public enum JoinInput: Sendable, Hashable {
    case code(JoinCode)
    case address(SessionAddress)

    public enum ParseError: Error, Sendable, Equatable {
        case empty
        case badCode(JoinCode.ParseError)
        case badHost
        case badPort
    }

    /// Six digits are a code; anything with a dot or colon is HOST[:PORT]
    /// (IPv4 or a host name; without a port the first session port is used).
    public init(parsing raw: String) throws(ParseError) {
        let text = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty else { throw .empty }
        guard text.contains(".") || text.contains(":") || text.contains(where: \.isLetter) else {
            do {
                self = .code(try JoinCode(parsing: text))
            } catch {
                throw .badCode(error)
            }
            return
        }
        var host = Substring(text)
        var port = JoinCode.basePort
        if let colon = text.lastIndex(of: ":") {
            host = text[..<colon]
            let portText = text[text.index(after: colon)...]
            guard let p = Int(portText), (1...65535).contains(p), portText.allSatisfy(\.isASCII) else {
                throw .badPort
            }
            port = p
        }
        guard Self.isValidHost(host) else { throw .badHost }
        self = .address(SessionAddress(host: String(host), port: port))
    }

    /// A dotted quad, or a DNS name of letters, digits, dots and dashes.
    static func isValidHost(_ host: Substring) -> Bool {
        if host.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }) {
            return IPv4Address(host) != nil
        }
        return !host.isEmpty && host.utf8.count <= 253
            && host.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "-") }
            && !host.hasPrefix(".") && !host.hasPrefix("-")
    }

    /// The addresses to try, in order. A code is completed with each distinct
    /// /16 prefix of the joiner's own IPv4 addresses: LAN prefixes first, the
    /// 127.0 prefix last (so a typed code never reaches a session on this
    /// machine when the LAN one answers). 127.0 is always tried, which makes
    /// codes work between two apps on one machine.
    public func candidates(localAddresses: [IPv4Address]) -> [SessionAddress] {
        switch self {
        case .address(let a):
            return [a]
        case .code(let code):
            var prefixes: [(UInt8, UInt8)] = []
            func add(_ p: (UInt8, UInt8)) {
                if !prefixes.contains(where: { $0 == p }) { prefixes.append(p) }
            }
            for a in localAddresses where !a.isLoopback && !a.isUnspecified { add((a.octets.0, a.octets.1)) }
            add((127, 0))
            return prefixes.map(code.address(prefix:))
        }
    }
}
