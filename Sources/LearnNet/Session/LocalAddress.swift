import NIOCore
import LearnModel

public enum LocalAddress {
    /// An address other machines on the LAN can reach this one at: the first
    /// non-loopback IPv4 address that is up, else 127.0.0.1.
    public static func lanIPv4() -> String {
        let devices = (try? System.enumerateDevices()) ?? []
        for d in devices {
            guard case .v4 = d.address, let ip = d.address?.ipAddress, !ip.hasPrefix("127.") else { continue }
            return ip
        }
        return "127.0.0.1"
    }
}
