import HTTPTypes
import Hummingbird
import NIOConcurrencyHelpers
import OpenAPIHummingbird
import OpenAPIRuntime

/// The paths and methods the API serves, recorded as the generated code
/// registers them, so a known path asked with another method is answered
/// 405 with `Allow` (as HTTP says) instead of 404.
final class RouteTable: Sendable {
    private let routes = NIOLockedValueBox<[(components: [Substring], method: HTTPRequest.Method)]>([])

    func add(_ path: String, _ method: HTTPRequest.Method) {
        routes.withLockedValue { $0.append((Self.components(path), method)) }
    }

    /// The methods served at `path`; empty when the path is unknown.
    func methods(at path: String) -> [HTTPRequest.Method] {
        let asked = Self.components(path)
        return routes.withLockedValue { routes in
            routes.filter { route in
                route.components.count == asked.count
                    && zip(route.components, asked).allSatisfy { $0.hasPrefix("{") || $0 == $1 }
            }.map(\.method)
        }
    }

    private static func components(_ path: String) -> [Substring] {
        path.split(separator: "?", maxSplits: 1).first.map { $0.split(separator: "/") } ?? []
    }
}

/// Hands the generated code's routes to the router, noting each in the table.
struct RecordingTransport: ServerTransport {
    let router: Router<ServerRequestContext>
    let table: RouteTable

    func register(_ handler: @escaping @Sendable (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (HTTPResponse, HTTPBody?),
                  method: HTTPRequest.Method, path: String) throws {
        table.add(path, method)
        try router.register(handler, method: method, path: path)
    }
}
