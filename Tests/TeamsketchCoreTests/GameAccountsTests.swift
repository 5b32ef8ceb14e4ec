import Foundation
import LearnModel
import LearnStore
import TeamsketchCore
import Testing

@MainActor
@Suite struct GameAccountsTests {
    let mia = UUID(), ben = UUID(), ole = UUID()

    @Test func theSignedInPupilTheClassAndSyncedProfilesAreKnown() async throws {
        let store = try LocalStore.inMemory()
        try store.setProfile(accountID: ole.uuidString.lowercased(), ProfileRecord(name: "Ole", avatarPNG: nil, at: 1))
        let signIn = SchoolSignIn(server: "https://s", accountID: AccountID(mia), name: "Mia",
                                  isTeacher: false, token: "t", expiresAt: .distantFuture, classID: "c1")
        let ben = ben
        let accounts = GameAccounts.live(store: store, signIn: { signIn },
                                         classRoster: { [PlayerAccounts.Account(id: ben, name: "Ben")] })
        #expect(accounts.accounts().signedIn?.id == mia)
        #expect(accounts.accounts().known.map(\.name) == ["Ole"], "before the class answered: the profiles")
        await accounts.refreshClassRoster().value
        #expect(Set(accounts.accounts().known.map(\.name)) == ["Ben", "Ole"])
        accounts.forgetClassRoster()
        #expect(accounts.accounts().known.map(\.name) == ["Ole"], "a game alone uses no class list of an earlier game")
    }

    @Test func aClassListAskedForUnderAnEarlierGameIsNotKept() async {
        let gate = Gate()
        let ben = ben, ole = ole
        var calls = 0
        let accounts = GameAccounts(.init(signIn: { nil }, classRoster: {
            calls += 1
            if calls == 1 {
                await gate.wait()
                return [PlayerAccounts.Account(id: ben, name: "Ben")]
            }
            return [PlayerAccounts.Account(id: ole, name: "Ole")]
        }, profiles: { [:] }, finishedWords: { _ in throw StoreUnavailable() }))
        let first = accounts.refreshClassRoster()
        await Task.yield()
        await accounts.refreshClassRoster().value
        gate.open()
        await first.value
        #expect(accounts.accounts().known.map(\.name) == ["Ole"], "the late answer for the earlier game is dropped")
        #expect(accounts.finishedWords(of: "Mia").isEmpty, "an unreadable store only makes the draw less clever")
    }
}

/// Holds a task until the test opens it.
@MainActor
final class Gate {
    private var waiting: [CheckedContinuation<Void, Never>] = []
    private var isOpen = false

    func wait() async {
        if isOpen { return }
        await withCheckedContinuation { waiting.append($0) }
    }

    func open() {
        isOpen = true
        waiting.forEach { $0.resume() }
        waiting = []
    }
}
