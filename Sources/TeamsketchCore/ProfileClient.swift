import Foundation

/// Where the profile lives. `live` is the JSON file under the XDG config
/// folder; `inMemory` keeps it in a variable, for tests and for a device
/// whose home folder cannot be written.
public struct ProfileClient: Sendable {
    /// The stored profile, nil when there is none or it cannot be read.
    public var load: @Sendable () -> Profile?
    public var save: @Sendable (Profile) throws -> Void

    public init(load: @escaping @Sendable () -> Profile?, save: @escaping @Sendable (Profile) throws -> Void) {
        self.load = load
        self.save = save
    }

    /// `$XDG_CONFIG_HOME/teamsketch/profile.json` (a relative XDG_CONFIG_HOME
    /// is ignored, as the XDG rules say), else `~/.config/teamsketch/profile.json`.
    public static func live(environment: [String: String] = ProcessInfo.processInfo.environment) -> ProfileClient {
        let path = profilePath(environment: environment)
        return ProfileClient(
            load: {
                guard let data = FileManager.default.contents(atPath: path) else { return nil }
                return try? JSONDecoder().decode(Profile.self, from: data)
            },
            save: { profile in
                let url = URL(fileURLWithPath: path)
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try JSONEncoder().encode(profile).write(to: url, options: .atomic)
            })
    }

    public static func profilePath(environment: [String: String]) -> String {
        let base = environment["XDG_CONFIG_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
            ?? (environment["HOME"] ?? NSHomeDirectory()) + "/.config"
        return base + "/teamsketch/profile.json"
    }

    /// A profile in a variable: `load` returns what `save` last wrote.
    public static func inMemory(_ initial: Profile? = nil) -> ProfileClient {
        let box = LockedValue(initial)
        return ProfileClient(load: { box.value }, save: { box.value = $0 })
    }
}

/// A value guarded by a lock, so a `@Sendable` closure may keep and change it.
final class LockedValue<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value

    init(_ value: Value) { stored = value }

    var value: Value {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }

    /// Changes the value in place under one lock, so two writers cannot
    /// lose each other's change (as a read then a write could).
    func update(_ body: (inout Value) -> Void) { lock.withLock { body(&stored) } }
}
