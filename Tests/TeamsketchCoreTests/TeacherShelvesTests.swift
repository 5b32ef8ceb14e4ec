import Foundation
import LearnModel
import LearnStore
import TeamsketchCore
import Testing

/// The teacher's word lists and class settings as the window keeps them.
@Suite struct TeacherShelvesTests {
    let now = Date(timeIntervalSince1970: 1_790_000_000)

    @Test func aWordListIsKeptGivenToAClassTakenBackAndDeletedEachChangeSynced() throws {
        let store = try LocalStore.inMemory()
        let rounds = Tally()
        let shelf = WordListShelf.live(store) { rounds.add() }
        let pool = WordPool(id: "obst", name: "Obst", language: "de", items: [WordItem(word: "Apfel", hint: "rot")])
        try shelf.keep(pool)
        #expect(try store.pools().contains { $0.id == "obst" })
        try shelf.give("obst", to: "c1", true, now: now)
        #expect(try shelf.assignedClasses("obst") == ["c1"])
        try shelf.give("obst", to: "c1", false, now: now.addingTimeInterval(1))
        #expect(try shelf.assignedClasses("obst").isEmpty)
        try shelf.throwAway("obst")
        #expect(try !store.pools().contains { $0.id == "obst" })
        #expect(rounds.count == 4)
    }

    @Test func aClassWithoutSettingsHasTheDefaultsAndSetOnesAreReadBack() throws {
        let store = try LocalStore.inMemory()
        let rounds = Tally()
        let book = ClassSettingsBook.live(store) { rounds.add() }
        #expect(book.settings(of: "c1") == .defaults)
        var strict = ClassroomSettings.defaults
        strict.eraserAllowed = false
        try book.set(strict, for: "c1", now: now)
        #expect(book.settings(of: "c1").eraserAllowed == false)
        #expect(book.settings(of: "c2") == .defaults, "each class its own")
        #expect(rounds.count == 1)
        #expect(ClassSettingsBook.unavailable.settings(of: "c1") == .defaults)
        #expect(throws: StoreUnavailable.self) { try WordListShelf.unavailable.throwAway("obst") }
    }
}
