import Foundation
import LearnModel
import LearnStore
import TeamsketchCore
import Testing

@MainActor
@Suite struct PupilIdentityTests {
    let now = Date(timeIntervalSince1970: 1_790_000_000)

    func signIn(_ name: String, teacher: Bool = false) -> SchoolSignIn {
        SchoolSignIn(server: "https://school.example", accountID: AccountID("acc-\(name.lowercased())"), name: name, isTeacher: teacher,
                     token: "t", expiresAt: .distantFuture, classID: teacher ? nil : "c1")
    }

    func identity(_ store: LocalStore, rounds: Tally = Tally()) -> PupilIdentity {
        let prefs = DevicePreferences(client: .inMemory(Profile(name: "Laptop 3")), classroom: .inMemory(),
                                      overrides: SettingsOverrides(), userName: nil)
        return PupilIdentity.live(prefs, store: store) { rounds.add() }
    }

    @Test func aPupilSigningInDrawsUnderTheirAccountWithTheirSyncedPicture() throws {
        let store = try LocalStore.inMemory()
        let picture = avatarPNG(tag: 7)
        try store.setProfile(accountID: "acc-mia", ProfileRecord(name: "Mia", avatarPNG: picture, at: 1))
        let me = identity(store)
        try me.pupilSignedIn(signIn("Mia"))
        #expect(me.preferences.profile.name == "Mia")
        #expect(me.preferences.profile.avatarPNG == picture)
        try me.pupilSignedIn(signIn("Ben"))
        #expect(me.preferences.profile.name == "Ben")
        #expect(me.preferences.profile.avatarPNG == nil, "Ben never drew a picture: not Mia's")
    }

    @Test func aSyncedPictureThatFailsTheChecksIsLeftOutButTheNameIsSet() throws {
        let store = try LocalStore.inMemory()
        try store.setProfile(accountID: "acc-mia", ProfileRecord(name: "Mia", avatarPNG: avatarPNG(side: 4096), at: 1))
        let me = identity(store)
        try me.pupilSignedIn(signIn("Mia"))
        #expect(me.preferences.profile.name == "Mia" && me.preferences.profile.avatarPNG == nil)
    }

    @Test func aSignedInPupilKeepsTheirAccountsNameWhateverIsTyped() throws {
        let me = identity(try LocalStore.inMemory())
        try me.pupilSignedIn(signIn("Mia"))
        try me.typedName("Ben", signIn: signIn("Mia"))
        #expect(me.preferences.profile.name == "Mia")
        try me.typedName("Frau Berg", signIn: signIn("Frau Berg", teacher: true))
        #expect(me.preferences.profile.name == "Frau Berg", "a teacher's laptop takes the typed name")
        try me.notMe()
        try me.typedName("Ole", signIn: nil)
        #expect(me.preferences.profile.name == "Ole")
    }

    @Test func whatASignedInPupilSavesOnMeBecomesTheirAccountsProfile() throws {
        let store = try LocalStore.inMemory()
        let rounds = Tally()
        let me = identity(store, rounds: rounds)
        let picture = avatarPNG(tag: 3)
        try me.save(name: "Mimi", avatarPNG: picture, signIn: signIn("Mia"), now: now)
        #expect(me.preferences.profile.name == "Mia", "the account's name, not a nickname")
        let published = try #require(try store.profile(accountID: "acc-mia"))
        #expect(published.name == "Mia" && published.avatarPNG == picture)
        #expect(rounds.count == 1)
        try me.save(name: "Ole", avatarPNG: nil, signIn: nil, now: now)
        #expect(me.preferences.profile.name == "Ole")
        #expect(try store.profiles().count == 1, "nobody signed in: nothing more for the server")
        #expect(rounds.count == 1)
    }

    @Test func notMeLeavesNoNameOrPictureOfThePupilBehind() throws {
        let me = identity(try LocalStore.inMemory())
        try me.save(name: "Mia", avatarPNG: avatarPNG(), signIn: nil, now: now)
        try me.notMe()
        #expect(me.preferences.profile.name == Profile.fallback(userName: nil).name)
        #expect(me.preferences.profile.avatarPNG == nil)
    }
}
