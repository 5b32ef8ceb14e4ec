import Hummingbird

/// Counts and times every request by the route it matched. Outermost, so
/// a refusal thrown from below (a Problem, a 404) is counted with its
/// status as well.
struct MetricsMiddleware: RouterMiddleware {
    typealias Context = ServerRequestContext
    let metrics: ServerMetrics

    func handle(_ request: Request, context: Context,
                next: (Request, Context) async throws -> Response) async throws -> Response {
        let clock = ContinuousClock()
        let started = clock.now
        do {
            let response = try await next(request, context)
            record(request, context, status: response.status.code, since: started, clock)
            return response
        } catch {
            let status = (error as? any HTTPResponseError)?.status.code ?? 500
            record(request, context, status: status, since: started, clock)
            throw error
        }
    }

    private func record(_ request: Request, _ context: Context, status: Int,
                        since started: ContinuousClock.Instant, _ clock: ContinuousClock) {
        // The router sets the pattern it matched, and "NotFound" for a
        // path nothing serves: one series, whatever the path was.
        metrics.request(route: context.endpointPath ?? "NotFound", method: request.method.rawValue,
                        status: status, duration: clock.now - started)
    }
}
