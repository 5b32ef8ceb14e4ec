import Foundation
import Testing
@testable import LearnModel

@Suite struct PlayerAccountsTests {
    let mia = UUID(), ole = UUID(), anna1 = UUID(), anna2 = UUID()

    var accounts: PlayerAccounts {
        PlayerAccounts(signedIn: .init(id: mia, name: "Mia"),
                       known: [.init(id: mia, name: "Mia"), .init(id: ole, name: "Ole"),
                               .init(id: anna1, name: "Anna"), .init(id: anna2, name: "anna ")])
    }

    @Test func theSeatHereIsTheSignedInAccountAndTheOthersAreFoundByName() {
        let found = accounts.resolve([0: "Mia", 1: " OLE", 2: "Kim"], me: 0)
        #expect(found == [0: mia, 1: ole])
    }

    @Test func aNameTwoAccountsShareIsNobodysForSure() {
        #expect(accounts.resolve([0: "Mia", 1: "Anna"], me: 0) == [0: mia])
    }

    @Test func aTeammateWhoTypedThisPupilsNameIsNotThisPupil() {
        // Player 1 typed "Mia"; Mia is the one signed in at player 0's seat.
        #expect(accounts.resolve([0: "Mia", 1: "Mia"], me: 0) == [0: mia])
        // Nobody signed in: the name alone finds Mia, once.
        let unsigned = PlayerAccounts(known: [.init(id: mia, name: "Mia"), .init(id: ole, name: "Ole")])
        #expect(unsigned.resolve([0: "Mia", 1: "Ole"], me: 0) == [0: mia, 1: ole])
        #expect(unsigned.resolve([0: "Ole", 1: "Ole"], me: 0) == [:])
    }
}
