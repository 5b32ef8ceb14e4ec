import Foundation
import LearnModel

/// Who is signed in to which school server on this device. Kept in a file
/// only the user can read (it holds the token), and forgotten on signing
/// out. Without one the device works alone, exactly as without a server.
public struct SchoolSignIn: Codable, Equatable, Sendable {
    /// The server's base URL (scheme, host, port).
    public var server: String
    /// A PEM file of the authorities to trust instead of the system's, for a
    /// school that made its own.
    public var trustedCertificates: String?
    public var accountID: AccountID
    public var name: String
    public var isTeacher: Bool
    public var token: SchoolToken
    public var expiresAt: Date
    /// A pupil's class: its synced classroom settings rule this device.
    public var classID: SchoolClassID?
    /// A pupil's class's key for watchers, as the server gave it (64 hex
    /// digits): a session hosted here lets the class's wall watch at once.
    public var classWatchKey: String?

    public init(server: String, trustedCertificates: String? = nil, accountID: AccountID, name: String,
                isTeacher: Bool, token: SchoolToken, expiresAt: Date, classID: SchoolClassID? = nil, classWatchKey: String? = nil) {
        self.server = server; self.trustedCertificates = trustedCertificates; self.accountID = accountID
        self.name = name; self.isTeacher = isTeacher; self.token = token; self.expiresAt = expiresAt
        self.classID = classID; self.classWatchKey = classWatchKey
    }

    /// A pupil's class (a teacher's sign-in belongs to no one class).
    public var pupilClassID: SchoolClassID? { isTeacher ? nil : classID }

    /// What a session hosted here announces as its class: a pupil's class.
    public var classTag: ClassTag? { pupilClassID.map(ClassTag.init(class:)) }

    /// The key a session hosted here checks its watchers' proofs with: a
    /// pupil's class's (a teacher's sign-in belongs to no one group).
    public var hostWatchKey: [UInt8]? {
        isTeacher ? nil : classWatchKey.flatMap(WatchProof.key(hex:))
    }

    /// Whether syncing should start: the sign-in has not run out.
    public func isValid(at now: Date) -> Bool { expiresAt > now }

    /// Names the server and the account, so a device used by several
    /// accounts or moved to another server keeps a cursor for each.
    public var syncKey: String { server + "#" + accountID.text }
}

/// Where the sign-in lives: `$XDG_CONFIG_HOME/teamsketch/school.json`, made
/// readable by its owner only; or a variable, for tests.
public struct SchoolSignInClient: Sendable {
    public var load: @Sendable () -> SchoolSignIn?
    public var save: @Sendable (SchoolSignIn?) throws -> Void

    public init(load: @escaping @Sendable () -> SchoolSignIn?, save: @escaping @Sendable (SchoolSignIn?) throws -> Void) {
        self.load = load
        self.save = save
    }

    public static func live(environment: [String: String] = ProcessInfo.processInfo.environment) -> SchoolSignInClient {
        let path = (ProfileClient.profilePath(environment: environment) as NSString)
            .deletingLastPathComponent + "/school.json"
        return SchoolSignInClient(
            load: {
                // A token file anyone can change is not trusted with a size
                // beyond what a sign-in takes.
                guard let data = FileManager.default.contents(atPath: path), data.count < 64 * 1024 else { return nil }
                return try? JSONDecoder().decode(SchoolSignIn.self, from: data)
            },
            save: { signIn in
                guard let signIn else {
                    try? FileManager.default.removeItem(atPath: path)
                    return
                }
                try PrivateFile.write(try JSONEncoder().encode(signIn), to: path)
            })
    }

    public static func inMemory(_ initial: SchoolSignIn? = nil) -> SchoolSignInClient {
        let box = LockedValue(initial)
        return SchoolSignInClient(load: { box.value }, save: { box.value = $0 })
    }
}
