import Hummingbird
import Logging
import NIOConcurrencyHelpers
import ServiceLifecycle
import UnixSignals

/// How a server process stops on SIGTERM (a service manager) or SIGINT
/// (Ctrl-C). The desktops relayed through it are told first, with the
/// reason, so a host knows to offer its session again elsewhere rather
/// than waiting on a dead socket; then the HTTP server stops taking
/// connections and lets the requests under way finish, so a push already
/// received is stored and answered, never cut off halfway. A stop that
/// hangs (a client that never lets go) is cut short after `limit`.
public final class ServerStop: Sendable {
    public typealias Farewell = @Sendable (_ reason: String) async -> Void

    private let farewells = NIOLockedValueBox<[Farewell]>([])
    /// Ends when a stop is requested; a request before anyone waits is kept.
    private let requests: AsyncStream<Void>
    private let requester: AsyncStream<Void>.Continuation
    /// How long the requests under way have before the rest is cancelled.
    public let limit: Duration

    /// What the relayed desktops are told.
    public static let reason = "the school server is stopping"

    public init(limit: Duration = .seconds(30)) {
        self.limit = limit
        (requests, requester) = AsyncStream.makeStream()
    }

    /// Something to tell before the server stops taking requests.
    func beforeStopping(_ farewell: @escaping Farewell) {
        farewells.withLockedValue { $0.append(farewell) }
    }

    /// Stops the server as a signal would (tests; a command that is done).
    public func request() {
        requester.finish()
    }

    /// Runs `app` until SIGTERM or SIGINT (or `request()`), then stops it
    /// in the order above. `onStopping` runs as soon as the stop begins
    /// (a service manager is told).
    public func run(_ app: some ApplicationProtocol, logger: Logger,
                    signals: [UnixSignal] = [.sigterm, .sigint],
                    onStopping: @escaping @Sendable () -> Void = {}) async throws {
        var configuration = ServiceGroupConfiguration(services: [.init(service: app)], logger: logger)
        configuration.maximumGracefulShutdownDuration = limit
        let group = ServiceGroup(configuration: configuration)
        let failure = await withTaskGroup(of: Void.self, returning: (any Error)?.self) { watcher in
            watcher.addTask {
                await withTaskGroup(of: Void.self) { waits in
                    waits.addTask { await self.untilRequested() }
                    if !signals.isEmpty {
                        waits.addTask {
                            for await signal in await UnixSignalsSequence(trapping: signals) {
                                logger.info("stopping on \(signal)")
                                return
                            }
                        }
                    }
                    await waits.next()
                    waits.cancelAll()
                }
                // The server ended on its own (an error): nothing to stop.
                guard !Task.isCancelled else { return }
                onStopping()
                await self.sayFarewell()
                await group.triggerGracefulShutdown()
            }
            defer { watcher.cancelAll() }
            do {
                try await group.run()
                return nil
            } catch {
                return error
            }
        }
        if let failure { throw failure }
    }

    /// Returns on a request, or when the waiting task is cancelled.
    private func untilRequested() async {
        for await _ in requests {}
    }

    /// Every farewell at once, given `farewellTime` in all: a desktop that
    /// does not read cannot hold the stop up.
    private func sayFarewell() async {
        let all = farewells.withLockedValue { $0 }
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                await withTaskGroup(of: Void.self) { each in
                    for farewell in all { each.addTask { await farewell(Self.reason) } }
                }
            }
            group.addTask { try? await Task.sleep(for: Self.farewellTime) }
            await group.next()
            group.cancelAll()
        }
    }

    static let farewellTime: Duration = .seconds(2)
}
