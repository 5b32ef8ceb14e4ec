import Foundation

/// Whose address a request counts as, for the sign-in limits per address.
/// Behind a reverse proxy every request comes from the proxy; only when
/// the peer is a proxy the school named (`--trusted-proxy`) is its
/// `X-Forwarded-For` believed, and then the right-most address in it that
/// is not itself a trusted proxy: what the proxy saw, not what a client
/// wrote into the header before it.
enum ClientAddress {
    /// Longer headers are not read: a chain of proxies is short.
    static let maxHeaderLength = 1000

    static func resolve(peer: String, forwardedFor: String?, trustedProxies: Set<String>) -> String {
        guard trustedProxies.contains(peer), let header = forwardedFor, header.utf8.count <= maxHeaderLength else {
            return peer
        }
        for entry in header.split(separator: ",").reversed() {
            let address = entry.trimmingCharacters(in: .whitespaces)
            guard isAddress(address) else { return peer }
            if !trustedProxies.contains(address) { return address }
        }
        return peer
    }

    /// What an address counts as, for every limit per address: an IPv6
    /// address with its /64 (one home or device usually holds a whole
    /// /64), an IPv4 one mapped into IPv6 as itself, anything else as it is.
    static func key(_ address: String) -> String {
        if address.hasPrefix("::ffff:"), address.contains(".") { return String(address.dropFirst(7)) }
        guard address.contains(":") else { return address }
        return slash64(address) ?? address
    }

    /// The /64 network of an IPv6 address, as text.
    private static func slash64(_ text: String) -> String? {
        var address = in6_addr()
        guard inet_pton(AF_INET6, text, &address) == 1 else { return nil }
        let bytes = withUnsafeBytes(of: address) { Array($0.prefix(8)) }
        return stride(from: 0, to: 8, by: 2).map { String(UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]), radix: 16) }
            .joined(separator: ":") + "::/64"
    }

    /// An IPv4 or IPv6 address's characters and length, nothing else (a
    /// name, a port or a stray quote is not an address to count by).
    private static func isAddress(_ text: String) -> Bool {
        (2...45).contains(text.utf8.count)
            && text.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) || (65...70).contains($0) || $0 == 46 || $0 == 58 }
    }
}
