import LearnModel

/// Account rules shared by the command line and the API.
public enum Accounts {
    /// The teacher's window checks the same rule before it asks.
    public static let minPasswordLength = NewTeacherPassword.minCharacters
    public static let maxPasswordLength = NewTeacherPassword.maxCharacters

    public static func isAcceptablePassword(_ password: String) -> Bool {
        NewTeacherPassword.problem(password) == nil
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
