import Foundation
import LearnModel
import Testing
import LearnStore

extension StoreTests {
    @Suite struct UUIDv7 {
        final class SteppedClock: @unchecked Sendable {
            private let lock = NSLock()
            private var times: [Int64]
            init(_ times: [Int64]) { self.times = times }
            func next() -> Date {
                storeDate(lock.withLock { times.count > 1 ? times.removeFirst() : times[0] })
            }
        }

        @Test func layoutFollowsRFC9562() {
            let id = UUIDv7Generator(now: { storeDate(1_718_000_000_123) }).next()
            let b = id.uuid
            #expect(b.6 >> 4 == 7)
            #expect(b.8 >> 6 == 0b10)
            #expect(UUIDv7Generator.timestamp(of: id) == storeDate(1_718_000_000_123))
            #expect(id.uuidString.lowercased().hasPrefix("0190"))
            #expect(UUIDv7Generator.timestamp(of: UUID()) == nil, "a random v4 UUID has no time")
        }

        @Test func idsSortByTimeEvenWithinAMillisecondAndWhenTheClockStepsBack() {
            // Same ms many times, a later ms, then the wall clock going back.
            let times: [Int64] = Array(repeating: 1_000, count: 3000) + [1_005, 1_006, 900, 900, 1_007]
            let clock = SteppedClock(times)
            let generator = UUIDv7Generator(now: { clock.next() })
            let ids = times.map { _ in generator.next() }
            let strings = ids.map { $0.uuidString.lowercased() }
            #expect(strings == strings.sorted())
            #expect(Set(strings).count == strings.count)
            let stamps = ids.map { UUIDv7Generator.timestamp(of: $0)! }
            #expect(stamps == stamps.sorted())
            #expect(stamps.first == storeDate(1_000))
            #expect(stamps.last! >= storeDate(1_007))
        }

        @Test func realClockIdsAreStrictlyIncreasingAcrossThreads() async {
            let generator = UUIDv7Generator()
            let ids = await withTaskGroup(of: [String].self) { group in
                for _ in 0..<4 {
                    group.addTask { (0..<500).map { _ in generator.next().uuidString.lowercased() } }
                }
                var all: [[String]] = []
                for await batch in group { all.append(batch) }
                return all
            }
            for batch in ids { #expect(batch == batch.sorted()) }
            #expect(Set(ids.joined()).count == 2000)
        }
    }
}
