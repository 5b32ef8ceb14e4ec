import Foundation
import TeamsketchCore
import TeamsketchTestSupport
import Testing

@MainActor
@Suite struct MainActorEventsTests {
    /// The handler is the main actor's by its type; what is tested is the
    /// order, so the test waits for the last event rather than a deadline
    /// (the main thread is shared with every other main-actor test, and a
    /// busy machine may lend it late). The time limit only ends a hang.
    @Test(.timeLimit(.minutes(2))) func eventsFromAnotherThreadArriveInTheirOrder() async {
        let (arrived, everyEvent) = AsyncStream<[Int]>.makeStream()
        var seen: [Int] = []
        let sink = MainActorEvents.sink { (n: Int) in
            seen.append(n)
            if seen.count == 2_000 { everyEvent.yield(seen) }
        }
        Thread { for n in 0..<2_000 { sink(n) } }.start()
        var all: [Int]?
        for await everything in arrived { all = everything; break }
        #expect(all == Array(0..<2_000))
    }
}
