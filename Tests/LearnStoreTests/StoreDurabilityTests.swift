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
