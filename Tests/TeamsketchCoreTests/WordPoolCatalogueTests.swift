import Foundation
import LearnModel
import LearnStore
import Synchronization
import Testing
import TeamsketchCore
import TeamsketchTestSupport

@MainActor @Suite struct WordPoolCatalogueTests {
    let files = BuiltInPoolFiles(locator: ResourceLocator(directories: [RepositoryResources.directory.path]))

    /// A store that counts how often the built-in pools are offered to it.
    final class Counting: Sendable {
        let seeds = Mutex(0)
        let failSeeding = Mutex(false)
        let store: LocalStore
        init() throws { store = try LocalStore.inMemory() }
        var client: PoolStoreClient {
            PoolStoreClient(loadBuiltInIfMissing: { [self] pools in
                seeds.withLock { $0 += 1 }
                if failSeeding.withLock({ $0 }) { throw StoreUnavailable() }
                return try store.loadBuiltInPoolsIfMissing(pools)
            }, pools: { [store] in try store.pools() })
        }
    }

    @Test(arguments: [
        // The UI tests' German run: LANGUAGE is set but empty.
        (["LANGUAGE": "", "LANG": "de_DE.UTF-8"], "de"),
        (["LANG": "de_AT.UTF-8"], "de"),
        (["LANGUAGE": "de:en", "LANG": "en_GB.UTF-8"], "de"),
        (["LC_ALL": "de_DE.UTF-8", "LANG": "en_US.UTF-8"], "de"),
        (["LC_MESSAGES": "de_CH.UTF-8"], "de"),
        (["LANG": "en_US.UTF-8"], "en"),
        (["LANGUAGE": "fr:de", "LANG": "fr_FR.UTF-8"], "de"),
        // gettext ignores LANGUAGE in the C locale: the app speaks English.
        (["LANGUAGE": "de", "LC_ALL": "C.UTF-8"], "en"),
        // No French list: the app speaks English there, and so does the game.
        (["LANG": "fr_FR.UTF-8"], "en"),
        ([:], "en"),
    ] as [([String: String], String)])
    func theGameStartsWithTheListInTheLanguageTheAppSpeaks(environment: [String: String], expected: String) throws {
        let catalogue = WordPoolCatalogue(builtIn: files, store: nil,
                                          languages: WordPoolCatalogue.preferredLanguages(environment: environment))
        #expect(catalogue.offer().chosen?.id == BuiltInPools.id(expected))
    }

    @Test func builtInPoolsAreStoredOnceAndADeletedOneStaysDeleted() throws {
        let counting = try Counting()
        let catalogue = WordPoolCatalogue(builtIn: files, store: counting.client, languages: ["de"])
        #expect(catalogue.offer().pools.map(\.id) == [BuiltInPools.germanID, BuiltInPools.englishID])
        try counting.store.deletePool(id: BuiltInPools.englishID)
        let later = catalogue.offer()
        #expect(counting.seeds.withLock { $0 } == 1, "seeded once per run")
        #expect(later.pools.map(\.id) == [BuiltInPools.germanID])
        #expect(later.problems.isEmpty, "a pool the teacher deleted is no missing file")
    }

    @Test func importedPoolsAreOfferedAfterTheBuiltInOnes() throws {
        let counting = try Counting()
        try counting.store.savePool(WordPostFixture.germanPool)
        let offer = WordPoolCatalogue(builtIn: files, store: counting.client, languages: ["en"]).offer()
        #expect(offer.pools.map(\.id) == [BuiltInPools.germanID, BuiltInPools.englishID, WordPostFixture.germanPool.id])
        #expect(offer.chosen?.id == BuiltInPools.englishID)
    }

    @Test func theListTheTeacherGaveTheClassIsTheOnlyOneOfferedAndIsChosen() throws {
        let store = try LocalStore.inMemory()
        let live = PoolStoreClient.live(store)
        try store.savePool(WordPostFixture.germanPool)
        let classID = "6f1c2a4e-0000-4000-8000-000000000001"
        try store.setPoolAssignment(poolID: WordPostFixture.germanPool.id,
                                    PoolAssignment(classId: classID, assigned: true, at: 1))
        let catalogue = WordPoolCatalogue(builtIn: files, store: live, languages: ["en"])
        let offer = catalogue.offer(classID: SchoolClassID(classID.uppercased()))
        #expect(offer.pools.map(\.id) == [WordPostFixture.germanPool.id])
        #expect(offer.chosen?.id == WordPostFixture.germanPool.id)
        #expect(offer.fromTeacher)
        // Another class, no class, or the list taken back: every list, by language.
        for other in [catalogue.offer(classID: "6f1c2a4e-0000-4000-8000-000000000002"), catalogue.offer()] {
            #expect(!other.fromTeacher)
            #expect(other.chosen?.id == BuiltInPools.englishID)
            #expect(other.pools.count == 3)
        }
        try store.setPoolAssignment(poolID: WordPostFixture.germanPool.id,
                                    PoolAssignment(classId: classID, assigned: false, at: 2))
        #expect(catalogue.offer(classID: SchoolClassID(classID)).chosen?.id == BuiltInPools.englishID)
        // A list given to the class but deleted since offers the rest.
        try store.setPoolAssignment(poolID: WordPostFixture.germanPool.id,
                                    PoolAssignment(classId: classID, assigned: true, at: 3))
        try store.deletePool(id: WordPostFixture.germanPool.id)
        #expect(!catalogue.offer(classID: SchoolClassID(classID)).fromTeacher)
    }

    @Test func seedingThatFailedIsTriedAgain() throws {
        let counting = try Counting()
        counting.failSeeding.withLock { $0 = true }
        let catalogue = WordPoolCatalogue(builtIn: files, store: counting.client, languages: ["de"])
        // The store holds nothing yet: the files themselves are offered.
        #expect(catalogue.offer().pools.map(\.id) == [BuiltInPools.germanID, BuiltInPools.englishID])
        counting.failSeeding.withLock { $0 = false }
        _ = catalogue.offer()
        _ = catalogue.offer()
        #expect(counting.seeds.withLock { $0 } == 2)
        #expect(try counting.store.pools().count == 2)
    }

    @Test func withoutFilesOrStoreNothingIsChosenAndTheProblemsAreSaid() {
        let none = BuiltInPoolFiles(locator: ResourceLocator(directories: ["/nonexistent-teamsketch"]))
        let offer = WordPoolCatalogue(builtIn: none, store: nil, languages: ["de"]).offer()
        #expect(offer.pools.isEmpty && offer.chosen == nil)
        #expect(offer.problems.map(\.resource) == ["pools/de.json", "pools/en.json"])
    }

    @Test func builtInListsAreNamedInTheirOwnLanguage() throws {
        #expect(WordPoolCatalogue.title(of: try BuiltInPools.german()) == "Deutsch")
        #expect(WordPoolCatalogue.title(of: try BuiltInPools.english()) == "English")
        #expect(WordPoolCatalogue.title(of: WordPostFixture.germanPool) == WordPostFixture.germanPool.name)
    }
}
