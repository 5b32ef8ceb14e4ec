import Foundation
import Logging
import Testing
@testable import SchoolServer

/// Opening and closing the PostgreSQL pool many times at once, as the
/// server tests do, never leaves a close waiting for ever.
@Suite struct PostgresLifecycleTests {
    @Test func manyPoolsOpenQueryAndCloseWithoutHanging() async throws {
        guard Backend.postgresURL != nil else { return }
        let location = try await Backend.postgresql.makeLocation()
        let hung = Hangs()
        await withTaskGroup(of: Void.self) { group in
            for i in 0..<60 {
                group.addTask {
                    guard let db = try? await location.open(logger: Logger(label: "test"), migrating: false) else { return }
                    if i % 3 != 0 { _ = try? await db.query("SELECT 1 AS one", []) }
                    let closed = Task { await db.close() }
                    let watchdog = Task {
                        try await Task.sleep(for: .seconds(20))
                        hung.add(i)
                    }
                    await closed.value
                    watchdog.cancel()
                }
            }
        }
        #expect(hung.all.isEmpty, "closes that did not finish in 20 s: \(hung.all)")
    }
}

final class Hangs: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [Int] = []
    func add(_ i: Int) { lock.withLock { items.append(i) } }
    var all: [Int] { lock.withLock { items } }
}
