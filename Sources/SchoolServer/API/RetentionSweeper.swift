import Hummingbird
import Logging
import ServiceLifecycle

/// Erases archived classes once the school's retention has passed
/// (`SchoolAPI.eraseClassesPastRetention`): when the server starts and then
/// once an hour (`ServerConfiguration.retentionSweep`), until it stops.
/// Several server processes may each do it; a pupil or class the other one
/// erased first is simply gone.
struct RetentionSweeper: Service {
    let api: SchoolAPI
    let logger: Logger
    let every: Duration

    func run() async throws {
        while !Task.isCancelled {
            do {
                try await api.eraseClassesPastRetention()
            } catch {
                logger.error("erasing archived classes past their retention failed: \(error)")
            }
            do {
                try await cancelWhenGracefulShutdown { try await Task.sleep(for: every) }
            } catch {
                return
            }
        }
    }
}
