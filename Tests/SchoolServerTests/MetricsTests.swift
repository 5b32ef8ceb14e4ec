import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
@testable import SchoolServer

/// `GET /metrics`: the figures a school's IT watches move as devices use
/// the server, and only the bearer of the metrics token sees them.
@Suite struct MetricsTests {
    static let secret = "metrics-0123456789abcdef"

    func server(_ backend: Backend) throws -> TestServer {
        var server = TestServer(backend)
        server.configuration.metricsToken = try MetricsToken(Self.secret)
        return server
    }

    @Test(arguments: Backend.allCases)
    func pushesPullsOpsSignInFailuresAndRoutesAreCounted(_ backend: Backend) async throws {
        try await server(backend).run { api in
            let (_, berg) = try await api.teacher("Frau Berg")
            let mia = try await api.schoolClass("2b", teacher: berg, pupils: ["Mia"]).pupils["Mia"]!
            let before = try await api.metrics()
            let sketch = UUID()
            let pushed = try await api.push([Changes.create(sketch), Changes.stroke(sketch)], token: mia.token)
            #expect(pushed.accepted.count == 2)
            _ = try await api.pullAll(token: mia.token)
            let wrong = try await api.call(.post, "/sessions", json: ["name": "Frau Berg", "password": "not it"])
            #expect(wrong.status == .unauthorized)
            let after = try await api.metrics()

            #expect(after["teamsketch_pushes_total"] - before["teamsketch_pushes_total"] == 1)
            #expect(after["teamsketch_ops_stored_total"] - before["teamsketch_ops_stored_total"] == 2)
            #expect(after["teamsketch_pulls_total"] - before["teamsketch_pulls_total"] >= 1)
            #expect(after[#"teamsketch_sign_in_failures_total{reason="wrong"}"#]
                - before[#"teamsketch_sign_in_failures_total{reason="wrong"}"#] == 1)
            // By the route's pattern, method and status.
            let push = #"teamsketch_http_requests_total{route="/api/v1/sync/push",method="POST",status="200"}"#
            #expect(after[push] - before[push] == 1)
            let refused = #"teamsketch_http_requests_total{route="/api/v1/sessions",method="POST",status="401"}"#
            #expect(after[refused] - before[refused] == 1)
            let timed = #"teamsketch_http_request_duration_seconds_count{route="/api/v1/sync/push",method="POST"}"#
            #expect(after[timed] - before[timed] == 1)
            // What is true now: nothing relayed, drawn or waiting.
            for gauge in ["teamsketch_relay_sessions", "teamsketch_relay_members", "teamsketch_render_drawing",
                          "teamsketch_render_queue_length"] {
                #expect(after.values[gauge] == 0, "\(gauge)")
            }
            #expect(after.values["teamsketch_database_in_use"] != nil)
            // The pool it is measured against: SQLite's writer and five
            // readers, or PostgreSQL's connections of this process.
            #expect(after.values["teamsketch_database_pool_size"] == (backend == .sqlite ? 6 : 20))
        }
    }

    /// Made-up paths and methods are one series each, whatever was sent:
    /// a script cannot grow the page (or the server's memory) without end.
    @Test func whatAClientSendsNeverBecomesALabel() async throws {
        try await server(.sqlite).run { api in
            for n in 0..<20 {
                _ = try await api.client.execute(uri: "/nothing-here-\(n)", method: .get, headers: [:], body: nil) { _ in }
            }
            // Methods the server serves nowhere (HTTP's parser refuses made-up ones).
            let webDAV = ["PROPFIND", "MKCOL", "LOCK", "UNLOCK", "PURGE", "REPORT"]
            for method in webDAV {
                _ = try await api.client.execute(uri: "/api/v1/sessions", method: .init(method)!, headers: [:], body: nil) { _ in }
            }
            let page = try await api.metrics()
            #expect(!page.text.contains("nothing-here"))
            for method in webDAV { #expect(!page.text.contains(method)) }
            #expect(page[#"teamsketch_http_requests_total{route="NotFound",method="GET",status="404"}"#] == 20)
            let others = page.values.filter { $0.key.hasPrefix("teamsketch_http_requests_total{") && $0.key.contains(#"method="other""#) }
            #expect(others.values.reduce(0, +) == Double(webDAV.count))
        }
    }

    /// Pupils' and teachers' tokens, a wrong secret or none: 401. A server
    /// without a metrics token has no such page.
    @Test(arguments: Backend.allCases)
    func onlyTheMetricsTokenOpensThePage(_ backend: Backend) async throws {
        try await server(backend).run { api in
            let (_, berg) = try await api.teacher("Frau Berg")
            let mia = try await api.schoolClass("2b", teacher: berg, pupils: ["Mia"]).pupils["Mia"]!
            for authorization in [nil, "Bearer \(berg)", "Bearer \(mia.token)", "Bearer metrics-0123456789abcdeX",
                                  "Basic \(Self.secret)", Self.secret] {
                #expect(try await api.metricsStatus(authorization) == .unauthorized, "\(authorization ?? "none")")
            }
            #expect(try await api.metricsStatus("Bearer \(Self.secret)") == .ok)
        }
        try await TestServer(backend).run { api in
            let status = try await api.metricsStatus("Bearer \(Self.secret)")
            #expect(status == .notFound, "a server without a metrics token has no metrics page")
        }
    }

    @Test func aTokenIsASecretNotAWord() throws {
        #expect(throws: MetricsToken.Refusal.tooShort) { try MetricsToken("geheim\n") }
        // The file's last newline is not part of it.
        let token = try MetricsToken(Self.secret + "\n")
        #expect(token.admits("Bearer \(Self.secret)"))
        #expect(token.admits("bearer \(Self.secret)"))
        #expect(!token.admits("Bearer \(Self.secret)x"))
    }
}

/// The metrics page, read as Prometheus reads it: each sample by its name
/// and labels as written.
struct MetricsPage {
    var text: String
    var values: [String: Double] = [:]

    init(_ text: String) {
        self.text = text
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            guard let space = line.lastIndex(of: " "), let value = Double(line[line.index(after: space)...]) else { continue }
            values[String(line[..<space])] = value
        }
    }

    /// A sample not yet written counts as 0, as a counter not yet counted.
    subscript(_ sample: String) -> Double { values[sample] ?? 0 }
}

extension TestAPI {
    func metrics() async throws -> MetricsPage {
        try await client.execute(uri: "/metrics", method: .get,
                                 headers: [.authorization: "Bearer \(MetricsTests.secret)"], body: nil) { response in
            #expect(response.status == .ok)
            #expect(response.headers[.contentType]?.hasPrefix("text/plain; version=0.0.4") == true)
            return MetricsPage(String(buffer: response.body))
        }
    }

    func metricsStatus(_ authorization: String?) async throws -> HTTPResponse.Status {
        var headers = HTTPFields()
        if let authorization { headers[.authorization] = authorization }
        return try await client.execute(uri: "/metrics", method: .get, headers: headers, body: nil) { $0.status }
    }
}
