import Foundation

/// Tells systemd (a `Type=notify` service) how the server is doing, the
/// way sd_notify(3) does: a datagram to the socket in `NOTIFY_SOCKET`.
/// Without that variable (a terminal, a test) nothing is sent. "READY=1"
/// once the server listens, so units ordered after it start only then and
/// a server that cannot bind fails its start; "STOPPING=1" when a stop
/// begins.
public struct ServiceManagerNotice: Sendable {
    /// The socket's address as systemd gives it: a path, or `@name` for
    /// the abstract namespace.
    public let address: String?

    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        let value = environment["NOTIFY_SOCKET"] ?? ""
        address = (value.hasPrefix("/") || value.hasPrefix("@")) ? value : nil
    }

    public static let ready = "READY=1"
    public static let stopping = "STOPPING=1"

    public static func status(_ text: String) -> String {
        "STATUS=" + text.replacingOccurrences(of: "\n", with: " ")
    }

    /// Sends the lines as one notice; false when there is no socket or it
    /// could not be reached (never fatal: the server runs on regardless).
    @discardableResult
    public func send(_ lines: String...) -> Bool {
        guard let socketAddress = self.address else { return false }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        var path = Array(socketAddress.utf8)
        if path.first == UInt8(ascii: "@") { path[0] = 0 }
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard path.count < capacity else { return false }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: path)
        }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + path.count)
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        let message = Array(lines.joined(separator: "\n").utf8)
        let sent = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                message.withUnsafeBytes { sendto(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL), address, length) }
            }
        }
        return sent == message.count
    }
}
