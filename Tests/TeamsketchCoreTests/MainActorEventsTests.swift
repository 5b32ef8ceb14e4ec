import Foundation
import TeamsketchCore
import TeamsketchTestSupport
import Testing

@MainActor
@Suite struct MainActorEventsTests {
    /// The handler is the main actor's by its type; what is tested is the order.
    @Test func eventsFromAnotherThreadArriveInTheirOrder() async throws {
        var seen: [Int] = []
        let sink = MainActorEvents.sink { (n: Int) in seen.append(n) }
        let sent = Thread { for n in 0..<2_000 { sink(n) } }
        sent.start()
        try await eventually("every event arrived") { seen.count == 2_000 }
        #expect(seen == Array(0..<2_000))
    }
}
