import Foundation
import LearnModel
import LearnStore
import Testing

/// A finished stroke must survive a power cut, not only a killed app: the
/// store syncs every commit unless told it is only for a benchmark or test.
@Suite struct StoreDurabilityTests {
    @Test func aStoreOnDiskSyncsEveryCommit() throws {
        try withStoreTempDirectory { dir in
            let store = try LocalStore(path: dir + "/a.sqlite")
            #expect(try store.synchronousLevel() == 2)  // FULL
        }
    }

    @Test func theCheaperModeIsOnlyOnRequest() throws {
        try withStoreTempDirectory { dir in
            let store = try LocalStore(path: dir + "/b.sqlite", durability: .appCrash)
            #expect(try store.synchronousLevel() == 1)  // NORMAL
        }
    }
}

/// Dates from before the import limits existed, or built in memory, never
/// trap the store's millisecond conversion.
@Suite struct StoreImpossibleDateTests {
    @Test func aSketchFromTheFarFutureIsStoredWithoutATrap() throws {
        let store = try LocalStore.inMemory()
        for t in [1e19, -1e19, Double.nan, Double.infinity] {
            let meta = SketchMeta(name: "far", createdAt: Date(timeIntervalSince1970: t))
            try store.createSketch(meta)
            let back = try store.loadSketch(meta.id)
            #expect(back.meta.createdAt.timeIntervalSince1970.isFinite)
        }
    }
}
