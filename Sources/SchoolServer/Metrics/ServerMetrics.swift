import Foundation
import Metrics
import Prometheus

/// What a school's IT watches while the laptops sync, in Prometheus's text
/// format (`GET /metrics`). Counters and latencies are recorded as things
/// happen (through swift-metrics, into this server's own registry, so two
/// servers in one process — the tests — never mix their figures); what is
/// true at one moment (relay sessions, images waiting, database use) is
/// read when the page is asked for, so it is never stale.
///
/// Every label value comes from a short list the server knows (a route's
/// pattern, a method, a status, a reason), never from what a client sent:
/// a script asking for a million made-up paths adds one series, not a
/// million.
final class ServerMetrics: Sendable {
    let registry = PrometheusCollectorRegistry()
    private let factory: PrometheusMetricsFactory

    let pushes: CoreMetrics.Counter
    let pulls: CoreMetrics.Counter
    let opsStored: CoreMetrics.Counter
    let opsRefused: CoreMetrics.Counter

    init() {
        var factory = PrometheusMetricsFactory(registry: registry)
        // Seconds from 5 ms to 10 s: a pull takes a few ms, a push of 500
        // changes or a big image some hundred; beyond 10 s is an outage.
        factory.defaultDurationHistogramBuckets = [
            .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100),
            .milliseconds(250), .milliseconds(500), .seconds(1), .milliseconds(2500), .seconds(5), .seconds(10),
        ]
        self.factory = factory
        pushes = CoreMetrics.Counter(label: "teamsketch_pushes_total", factory: factory)
        pulls = CoreMetrics.Counter(label: "teamsketch_pulls_total", factory: factory)
        opsStored = CoreMetrics.Counter(label: "teamsketch_ops_stored_total", factory: factory)
        opsRefused = CoreMetrics.Counter(label: "teamsketch_ops_refused_total", factory: factory)
    }

    /// One answered request: `route` is the pattern it matched
    /// (`/api/v1/sketches/{sketchId}/image`), or "NotFound".
    func request(route: String, method: String, status: Int, duration: Duration) {
        let method = Self.knownMethods.contains(method) ? method : "other"
        CoreMetrics.Counter(label: "teamsketch_http_requests_total",
                            dimensions: [("route", route), ("method", method), ("status", String(status))], factory: factory)
            .increment()
        CoreMetrics.Timer(label: "teamsketch_http_request_duration_seconds",
                          dimensions: [("route", route), ("method", method)], factory: factory)
            .record(duration: duration)
    }

    static let knownMethods: Set<String> = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]

    enum SignInFailure: String {
        /// A wrong name, password, picture password or class code.
        case wrong
        /// Refused unchecked: too many wrong tries of late.
        case throttled
    }

    func signInFailed(_ why: SignInFailure) {
        CoreMetrics.Counter(label: "teamsketch_sign_in_failures_total", dimensions: [("reason", why.rawValue)],
                            factory: factory)
            .increment()
    }

    /// What is true now, set just before the page is written.
    struct Moment: Sendable {
        var relaySessions = 0
        var relayMembers = 0
        var imagesDrawing = 0
        var imagesWaiting = 0
        var databaseInUse = 0
        var databasePoolSize = 0
    }

    /// The page: every family, in Prometheus's text format 0.0.4.
    func page(_ now: Moment) -> String {
        let gauges: [(String, Int)] = [
            ("teamsketch_relay_sessions", now.relaySessions),
            ("teamsketch_relay_members", now.relayMembers),
            ("teamsketch_render_drawing", now.imagesDrawing),
            ("teamsketch_render_queue_length", now.imagesWaiting),
            ("teamsketch_database_in_use", now.databaseInUse),
            ("teamsketch_database_pool_size", now.databasePoolSize),
        ]
        for (label, value) in gauges { CoreMetrics.Gauge(label: label, factory: factory).record(value) }
        var page: [UInt8] = []
        page.reserveCapacity(16 << 10)
        registry.emit(into: &page)
        return String(decoding: page, as: UTF8.self)
    }
}
