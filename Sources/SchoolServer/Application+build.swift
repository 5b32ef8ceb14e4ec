import Hummingbird
import HummingbirdCore
import HummingbirdTLS
import HummingbirdWebSocket
import Logging
import NIOCore
import NIOSSL
import OpenAPIHummingbird
import OpenAPIRuntime
import SchoolServerAPI

/// The server's dependencies: where data lives, how passwords are hashed,
/// what time it is. Tests pass their own.
public struct ServerDependencies: Sendable {
    public var database: any ServerDatabase
    public var hasher: PasswordHasher
    public var clock: ServerClock

    public init(database: any ServerDatabase, hasher: PasswordHasher = .bcrypt(), clock: ServerClock = .live) {
        self.database = database
        self.hasher = hasher
        self.clock = clock
    }
}

/// Builds the whole server: the API from openapi.yaml under /api/v1, the
/// request-size cap, JSON problems for every refusal. The executable and
/// the tests both start here. `stop`: how the server will be stopped
/// (`ServerStop.run`), told what to say to relayed desktops first.
public func buildApplication(
    _ configuration: ServerConfiguration,
    dependencies: ServerDependencies,
    logger: Logger = Logger(label: "teamsketch-server"),
    stop: ServerStop? = nil,
    onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }
) throws -> some ApplicationProtocol {
    let router = Router(context: ServerRequestContext.self)
    let routes = RouteTable()
    let metrics = ServerMetrics()
    router.middlewares.add(MetricsMiddleware(metrics: metrics))
    router.middlewares.add(ProblemMiddleware(routes: routes))
    let disk = DiskRoom(folder: dependencies.database.localFolder, limits: configuration.disk, logger: logger)
    disk.keepBallast()
    var dependencies = dependencies
    let database = MeteredDatabase(dependencies.database)
    dependencies.database = database
    let renderer = SketchRenderer(limits: configuration.rendering)
    let api = SchoolAPI(configuration: configuration, dependencies: dependencies, logger: logger,
                        renderer: renderer, throttle: SignInThrottle(policy: configuration.signInPolicy),
                        disk: disk, metrics: metrics)
    router.middlewares.add(RequestInfoMiddleware(trustedProxies: configuration.trustedProxies))
    router.middlewares.add(BodyLimitMiddleware(limits: configuration.limits, account: { token in
        try? await api.account(for: token)
    }))
    try api.registerHandlers(on: RecordingTransport(router: router, table: routes), serverURL: try Servers.Server1.url(),
                             middlewares: [APIErrorMiddleware()])
    WebGallery(api: api, secureCookies: configuration.tls != nil).register(on: router)
    let hub = RelayHub()
    let relay = RelayRoutes(api: api, hub: hub, proxy: RelayProxy(serverTLS: configuration.tls, logger: logger),
                            logger: logger)
    relay.register(on: router)
    stop?.beforeStopping { await hub.farewell($0) }
    stop?.beforeStopping { _ in api.bell.close() }
    if let token = configuration.metricsToken {
        MetricsRoute(metrics: metrics, token: token, hub: hub, renderer: renderer, database: database).register(on: router)
    }
    let webSockets = Router(context: BasicWebSocketRequestContext.self)
    relay.register(on: webSockets)
    let http = HTTPServerBuilder.http1ClosingHTTP10(
        webSocketRouter: webSockets,
        configuration: .init(http1: .init(idleTimeout: TimeAmount(configuration.limits.idleTimeout)),
                             ws: .init(maxFrameSize: RelayRoutes.maxMessageBytes)),
        limiter: ConnectionLimiter(limits: configuration.limits, trustedProxies: configuration.trustedProxies))
    return Application(
        router: router,
        server: try configuration.tls.map { try .tls(http, tlsConfiguration: try $0.serverConfiguration()) } ?? http,
        configuration: .init(address: .hostname(configuration.host, port: configuration.port),
                             serverName: "teamsketch-server"),
        services: [RetentionSweeper(api: api, logger: logger, every: configuration.retentionSweep)],
        onServerRunning: { channel in
            let port = channel.localAddress?.port ?? configuration.port
            await hub.listening(at: configuration.relayAddress ?? configuration.defaultRelayAddress(port: port))
            await onServerRunning(port)
        },
        logger: logger)
}

extension ServerConfiguration.TLSFiles {
    /// Read when the server starts, so a wrong path or a key that does not
    /// fit stops it with a message instead of failing every connection.
    func serverConfiguration() throws -> TLSConfiguration {
        let chain = try NIOSSLCertificate.fromPEMFile(certificateChain).map { NIOSSLCertificateSource.certificate($0) }
        let key = try NIOSSLPrivateKey(file: privateKey, format: .pem)
        return TLSConfiguration.makeServerConfiguration(certificateChain: chain, privateKey: .privateKey(key))
    }
}

extension ServerConfiguration {
    /// The address this process listens on, as another process on the same
    /// machine reaches it (loopback when it listens on every address).
    func defaultRelayAddress(port: Int) -> String {
        let scheme = tls == nil ? "http" : "https"
        let name: String
        switch host {
        case "", "0.0.0.0", "::", "[::]": name = "127.0.0.1"
        case let literal where literal.contains(":") && !literal.hasPrefix("["): name = "[\(literal)]"
        default: name = host
        }
        return "\(scheme)://\(name):\(port)"
    }
}
