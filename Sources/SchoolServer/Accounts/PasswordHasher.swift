import HummingbirdBcrypt
import NIOPosix

/// Hashes and checks passwords (and picture passwords) with bcrypt, on a
/// thread pool: a check takes a quarter of a second at the live cost, which
/// must not stall the event loops. Tests use the lowest cost.
public struct PasswordHasher: Sendable {
    public var hash: @Sendable (_ password: String) async throws -> String
    public var verify: @Sendable (_ password: String, _ hash: String) async throws -> Bool
    /// A hash of a secret nobody knows, at the same cost: checked when a
    /// sign-in names no account, so the answer takes as long and does not
    /// tell which names exist.
    public var decoy: String

    public init(hash: @escaping @Sendable (String) async throws -> String,
                verify: @escaping @Sendable (String, String) async throws -> Bool,
                decoy: String) {
        self.hash = hash
        self.verify = verify
        self.decoy = decoy
    }

    public static func bcrypt(cost: UInt8 = 12) -> PasswordHasher {
        PasswordHasher(
            hash: { password in
                try await NIOThreadPool.singleton.runIfActive { Bcrypt.hash(bcryptInput(password), cost: cost) }
            },
            verify: { password, hash in
                try await NIOThreadPool.singleton.runIfActive { Bcrypt.verify(bcryptInput(password), hash: hash) }
            },
            decoy: Bcrypt.hash(BearerToken.random().text, cost: cost))
    }

    /// What bcrypt is given: the password itself when it fits bcrypt's 72
    /// bytes, else its SHA-256 (71 bytes with its mark), so no byte of a
    /// long password (72 umlauts are 144 bytes) is cut off unread. Every
    /// password set before fitted, so their hashes check as they did.
    static func bcryptInput(_ password: String) -> String {
        password.utf8.count <= 72 ? password : "sha256:" + sha256Hex(password)
    }
}
