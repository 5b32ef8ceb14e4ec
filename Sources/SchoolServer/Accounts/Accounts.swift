/// Account rules shared by the command line and the API.
public enum Accounts {
    /// bcrypt reads at most 72 bytes; a longer password would be cut
    /// silently, so it is refused when set.
    public static let minPasswordLength = 8
    public static let maxPasswordLength = 72

    public static func isAcceptablePassword(_ password: String) -> Bool {
        (minPasswordLength...maxPasswordLength).contains(password.utf8.count)
    }

    public static func createTeacher(_ name: PersonName, password: String, database: any ServerDatabase,
                                     hasher: PasswordHasher = .bcrypt(),
                                     clock: ServerClock = .live) async throws -> AccountStore.CreateResult {
        let hash = try await hasher.hash(password)
        return try await AccountStore(db: database).createTeacher(name, passwordHash: hash, now: clock.now())
    }

    /// The text a three-picture password is hashed as.
    static func pictureSecret(_ pictures: [Int]) -> String {
        "pictures:" + pictures.map(String.init).joined(separator: "-")
    }
}
