import Foundation
import Logging
import Testing
@testable import SchoolServer

/// The server tests open and close PostgreSQL pools by the dozen at once;
/// a close that never finished would leave a test waiting without any
/// timer. Sixty pools, most of them used, are closed at once, and each
/// close must finish.
@Suite struct PostgresLifecycleTests {
    @Test func manyPoolsOpenQueryAndCloseAtOnceAndEveryCloseFinishes() async throws {
        let location = try await Backend.postgresql.makeLocation()
        let closed = Closed()
        for i in 0..<60 {
            let db = try await location.open(logger: Logger(label: "test"), migrating: false)
            // Unstructured, so a close that hangs fails this test below
            // instead of holding it.
            Task {
                if i % 3 != 0 { _ = try? await db.query("SELECT 1 AS one", []) }
                await db.close()
                closed.add(i)
            }
        }
        let deadline = ContinuousClock.now + .seconds(60)
        while closed.count < 60, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(closed.count == 60, "closes that did not finish within 60 s: \(closed.missing(of: 60))")
    }
}

private final class Closed: @unchecked Sendable {
    private let lock = NSLock()
    private var done: Set<Int> = []
    func add(_ i: Int) { _ = lock.withLock { done.insert(i) } }
    var count: Int { lock.withLock { done.count } }
    func missing(of n: Int) -> [Int] { lock.withLock { (0..<n).filter { !done.contains($0) } } }
}
