import NIOCore
import NIOPosix
import LearnModel

extension IPv4Address {
    /// For socket options (IP_ADD_MEMBERSHIP, IP_MULTICAST_IF), which take
    /// raw `in_addr` values NIO has no typed wrapper for.
    var inAddr: in_addr {
        let v = UInt32(octets.0) << 24 | UInt32(octets.1) << 16 | UInt32(octets.2) << 8 | UInt32(octets.3)
        return in_addr(s_addr: v.bigEndian)
    }
}
