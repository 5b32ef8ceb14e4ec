import Foundation

/// The name a pupil last used on this device, so joining is one tap next time.
/// Kept in a small file under the XDG config directory.
public struct Profile: Codable, Sendable {
    public init(name: String, soundsOn: Bool? = nil) {
        self.name = name
        self.soundsOn = soundsOn
    }

    public var name: String
    /// Buchstaben Post's sounds; nil means on. A stand-in for the classroom
    /// setting the teacher's admin window will own.
    public var soundsOn: Bool?

    public static func load() -> Profile {
        guard let data = FileManager.default.contents(atPath: path),
              let p = try? JSONDecoder().decode(Profile.self, from: data), !p.name.isEmpty else {
            let user = ProcessInfo.processInfo.environment["USER"] ?? ""
            return Profile(name: user.isEmpty || user == "root" ? "Pupil" : user.capitalized)
        }
        return p
    }

    public func save() {
        let url = URL(fileURLWithPath: Self.path)
        try? FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try? JSONEncoder().encode(self).write(to: url, options: .atomic)
    }

    private static var path: String {
        let env = ProcessInfo.processInfo.environment
        let base = env["XDG_CONFIG_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
            ?? (env["HOME"] ?? NSHomeDirectory()) + "/.config"
        return base + "/teamsketch/profile.json"
    }
}
