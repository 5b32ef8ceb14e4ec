import Foundation
import LearnModel

/// A random mark this device made once and keeps
/// (`$XDG_CONFIG_HOME/teamsketch/device-mark`, readable by its owner only).
/// The school server lists a class's names for signing in only to devices
/// where a pupil of it or its teacher signed in before, or that were given
/// the class's code; the mark is how it knows this device again. It says
/// nothing about who uses the device.
public enum DeviceMark {
    /// The device's mark, made and kept on first use. Where it cannot be
    /// kept (a kiosk whose home is read-only or wiped at every start), the
    /// machine's own id stands in, hashed with this program's name, so the
    /// kiosk stays the device its class has seen; a fresh one for this run
    /// only when there is neither.
    public static func load(environment: [String: String] = ProcessInfo.processInfo.environment,
                            machineID: String = "/etc/machine-id") -> String {
        let path = (ProfileClient.profilePath(environment: environment) as NSString).deletingLastPathComponent + "/device-mark"
        if let data = FileManager.default.contents(atPath: path), data.count <= 64,
           let kept = String(data: data, encoding: .utf8)?.trimmingCharacters(in: .whitespacesAndNewlines), isWellFormed(kept) {
            return kept
        }
        let made = random()
        if (try? PrivateFile.write(Data(made.utf8), to: path)) != nil { return made }
        if let data = FileManager.default.contents(atPath: machineID), (16...64).contains(data.count) {
            return encoded(SHA256.hash(Array("teamsketch device mark\n".utf8) + data).prefix(24))
        }
        return made
    }

    /// 24 random bytes in base64url: 32 letters, digits, `-` and `_`.
    public static func random() -> String {
        var generator = SystemRandomNumberGenerator()
        return encoded((0..<24).map { _ in UInt8.random(in: 0...255, using: &generator) })
    }

    private static func encoded(_ bytes: some Sequence<UInt8>) -> String {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
    }

    /// What the server takes as a mark.
    public static func isWellFormed(_ text: String) -> Bool {
        (22...64).contains(text.utf8.count)
            && text.unicodeScalars.allSatisfy { $0.isASCII && (CharacterSet.alphanumerics.contains($0) || $0 == "-" || $0 == "_") }
    }
}
