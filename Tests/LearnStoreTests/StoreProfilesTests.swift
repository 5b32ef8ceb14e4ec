import Foundation
import LearnModel
import LearnStore
import Testing

@Suite struct StoreProfilesTests {
    @Test func everyKnownProfileIsListedByAccount() throws {
        let store = try LocalStore.inMemory()
        #expect(try store.profiles().isEmpty)
        let png = Data([0x89, 0x50, 0x4E, 0x47, 1, 2, 3])
        try store.setProfile(accountID: "a1", ProfileRecord(name: "Mia", avatarPNG: png, at: 1))
        try store.setProfile(accountID: "a2", ProfileRecord(name: "Ole", at: 2))
        try store.setProfile(accountID: "a1", ProfileRecord(name: "Mia", at: 3))   // the latest wins
        let all = try store.profiles()
        #expect(all.count == 2)
        #expect(all["a1"]?.avatarPNG == nil)
        #expect(all["a2"]?.name == "Ole")
    }
}
