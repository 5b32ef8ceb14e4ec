import Foundation

/// Where the kiosk's files are: the machine's, which only an admin can
/// write, and the user account's, which the teacher's window writes.
public struct KioskConfigClient: Sendable {
    public var loadSystem: @Sendable () -> String?
    public var loadUser: @Sendable () -> String?
    public var saveUser: @Sendable (String) throws -> Void

    public init(loadSystem: @escaping @Sendable () -> String?, loadUser: @escaping @Sendable () -> String?,
                saveUser: @escaping @Sendable (String) throws -> Void) {
        self.loadSystem = loadSystem
        self.loadUser = loadUser
        self.saveUser = saveUser
    }

    public static let systemPath = "/etc/teamsketch/kiosk.conf"

    public static func live(environment: [String: String] = ProcessInfo.processInfo.environment) -> KioskConfigClient {
        let user = (ProfileClient.profilePath(environment: environment) as NSString)
            .deletingLastPathComponent + "/kiosk.conf"
        return KioskConfigClient(
            loadSystem: { read(systemPath) },
            loadUser: { read(user) },
            saveUser: { text in
                try FileManager.default.createDirectory(atPath: (user as NSString).deletingLastPathComponent,
                                                        withIntermediateDirectories: true)
                try Data(text.utf8).write(to: URL(fileURLWithPath: user), options: .atomic)
            })
    }

    public static func inMemory(system: String? = nil, user: String? = nil) -> KioskConfigClient {
        let box = LockedValue(user)
        return KioskConfigClient(loadSystem: { system }, loadUser: { box.value }, saveUser: { box.value = $0 })
    }

    /// At most one byte more than a kiosk file may have is read, so a
    /// huge file is reported as too big rather than read whole.
    private static func read(_ path: String) -> String? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        guard let data = try? handle.read(upToCount: KioskConfigFile.maxBytes + 1) else { return nil }
        return String(decoding: data, as: UTF8.self)
    }
}
