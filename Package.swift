// swift-tools-version: 6.1
import PackageDescription

// Targets are split by what they depend on, so the school server can link the
// model, the store-free formats and the renderer without GTK, sockets or the
// desktop's store. `scripts/check-imports.sh` (run by `make test`) enforces
// which target may import what; docs/ARCHITECTURE.md explains why.
/// The model's domains (see the targets below), for the tests that reach
/// their internals.
let modelDomains: [Target.Dependency] = ["LearnBasics", "LearnSketch", "LearnWordPost", "LearnMaths", "LearnRecords",
                                         "LearnSession", "LearnDiscovery", "LearnAnalysis"]

let package = Package(
    name: "Teamsketch",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "TeamsketchDesktop", targets: ["TeamsketchDesktop"]),
        .executable(name: "TeamsketchTools", targets: ["TeamsketchTools"]),
        .executable(name: "TeamsketchServer", targets: ["TeamsketchServer"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        // The school server.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth", from: "2.5.0"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.1.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.8.1"),
        .package(url: "https://github.com/hummingbird-project/swift-openapi-hummingbird", from: "2.1.0"),
        .package(url: "https://github.com/apple/swift-openapi-runtime", from: "1.13.4", traits: []),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        // The desktop's client of the school server.
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-openapi-async-http-client", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        // The school server's metrics page (Prometheus text format).
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        // Packaged .xopp files (a zip archive, written by recent Xournal++).
        .package(url: "https://github.com/weichsel/ZIPFoundation", exact: "0.9.20"),
    ],
    targets: [
        .systemLibrary(
            name: "CGtk",
            pkgConfig: "gtk4",
            providers: [.apt(["libgtk-4-dev"])]
        ),
        .systemLibrary(
            name: "CCairo",
            pkgConfig: "cairo",
            providers: [.apt(["libcairo2-dev"])]
        ),
        .systemLibrary(
            name: "CZlibShim",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]
        ),
        .systemLibrary(
            name: "CAvahi",
            pkgConfig: "avahi-glib",
            providers: [.apt(["libavahi-client-dev", "libavahi-glib-dev"])]
        ),
        // avahi-client on its own threaded poll, without GLib: the server's
        // announcement. The desktop keeps CAvahi (the GLib poll).
        .systemLibrary(
            name: "CEspeak",
            pkgConfig: "espeak-ng",
            providers: [.apt(["libespeak-ng-dev"])]
        ),
        .systemLibrary(
            name: "CAvahiClient",
            pkgConfig: "avahi-client",
            providers: [.apt(["libavahi-client-dev"])]
        ),
        // Foundation only: the model every other target shares.
        // Its data files (word pools) live in resources/ at the top; the app
        // core finds them and hands the bytes in.
        // The model's domains, each Foundation only, from the bottom up:
        // small helpers; sketches and their files; the word game's rules; the
        // maths game's rules; the records devices and the server exchange; the LAN session's protocol
        // (both activities' frames); discovery; the teacher's analyses.
        // LearnModel passes them all on (and holds the activity catalogue,
        // which names every activity and its settings key).
        .target(name: "LearnBasics"),
        .target(name: "LearnSketch", dependencies: ["LearnBasics"]),
        .target(name: "LearnWordPost", dependencies: ["LearnBasics"]),
        .target(name: "LearnMaths", dependencies: ["LearnBasics"]),
        .target(name: "LearnRecords", dependencies: ["LearnBasics", "LearnSketch", "LearnWordPost", "LearnMaths"]),
        .target(name: "LearnSession", dependencies: ["LearnBasics", "LearnSketch", "LearnWordPost", "LearnRecords"]),
        .target(name: "LearnDiscovery", dependencies: ["LearnBasics", "LearnSketch", "LearnRecords", "LearnSession"]),
        .target(name: "LearnAnalysis", dependencies: ["LearnBasics", "LearnSketch", "LearnMaths", "LearnRecords"]),
        .target(name: "LearnModel", dependencies: ["LearnBasics", "LearnSketch", "LearnWordPost", "LearnMaths", "LearnRecords",
                                                   "LearnSession", "LearnDiscovery", "LearnAnalysis"]),
        // The device's SQLite store.
        .target(
            name: "LearnStore",
            dependencies: [
                "LearnModel",
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        // LAN transport: TCP sessions and the UDP beacon on SwiftNIO.
        .target(
            name: "LearnNet",
            dependencies: [
                "LearnModel",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                // A session relayed by the school server runs over a WebSocket
                // (HTTPS when the server is, as the desktop's link is by default).
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ]
        ),
        // Cairo + zlib, no GTK: rasterizing, thumbnails, file formats on disk.
        .target(
            name: "LearnRender",
            dependencies: [
                "LearnModel", "CCairo", "CZlibShim",
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
            ]
        ),
        // The app's decisions without a window.
        .target(
            name: "TeamsketchCore",
            dependencies: ["LearnModel", "LearnStore", "LearnNet", "LearnRender"]
        ),
        // The desktop app as a library: its window, screens and services over
        // GTK, Avahi and espeak-ng. The two programs below run it.
        .target(
            name: "TeamsketchDesktopApp",
            dependencies: [
                "CGtk",
                "CAvahi",
                "CEspeak",
                "LearnModel",
                "LearnStore",
                "LearnNet",
                "LearnRender",
                "TeamsketchCore",
                "SchoolClient",
            ]
        ),
        // What the two command lines share: failures, a pen's path, a
        // session's events in a terminal.
        .target(
            name: "TeamsketchCommandSupport",
            dependencies: [
                "LearnModel",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // The app on every classroom computer, and its commands for teachers
        // and a school's IT (export, host, observe, discover, sync, …).
        .executableTarget(
            name: "TeamsketchDesktop",
            dependencies: [
                "TeamsketchDesktopApp",
                "TeamsketchCommandSupport",
                "LearnModel",
                "LearnStore",
                "LearnNet",
                "LearnRender",
                "TeamsketchCore",
                "SchoolClient",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                // `export` reads a copy of another device's store.
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        // The developers' tools: the benchmarks (`make bench`) and what the
        // tests run beside the app (a generated sketch, drawing groups).
        .executableTarget(
            name: "TeamsketchTools",
            dependencies: [
                "TeamsketchDesktopApp",
                "TeamsketchCommandSupport",
                "CGtk",
                "LearnModel",
                "LearnStore",
                "LearnNet",
                "LearnRender",
                "TeamsketchCore",
                "SchoolClient",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                // The class wall's bench runs its watchers on a thread of their own.
                .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
        // The desktop's side of the school server: the generated client over
        // HTTPS that checks the server's certificate, behind the app core's
        // small `SchoolConnection` interface.
        .target(
            name: "SchoolClient",
            dependencies: [
                "LearnModel",
                "LearnStore",
                "TeamsketchCore",
                "SchoolServerAPI",
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "OpenAPIAsyncHTTPClient", package: "swift-openapi-async-http-client"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ]
        ),
        // The API's types, server protocol and client, generated from
        // openapi.yaml by `make api` and committed (a build plugin would cost
        // every fresh clone minutes).
        .target(
            name: "SchoolServerAPI",
            dependencies: [.product(name: "OpenAPIRuntime", package: "swift-openapi-runtime")],
            exclude: ["openapi.yaml", "openapi-generator-config.yaml", "Generated/openapi.sha256"]
        ),
        // The school server as a library: `buildApplication` for the
        // executable and the tests; storage on SQLite (GRDB) or PostgreSQL.
        .target(
            name: "SchoolServer",
            dependencies: [
                "LearnModel",
                "LearnRender",
                "SchoolServerAPI",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                .product(name: "OpenAPIHummingbird", package: "swift-openapi-hummingbird"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto"),
                // A pupil's data as one archive for their family.
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
                // The hourly erasing of classes past the school's retention
                // runs as one of the application's services.
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                // A stop on SIGTERM tells relayed desktops before the server quiesces.
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Mustache", package: "swift-mustache"),
                // GET /metrics: counted through swift-metrics, written by swift-prometheus.
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                // A relayed socket that arrives at a process not holding the
                // session is passed on to the one that does.
                .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
            ]
        ),
        // The school server's DNS-SD announcement: the one C module the
        // server links, kept out of SchoolServer so the library stays pure
        // Swift and its tests never need a daemon.
        .target(
            name: "ServerAnnouncer",
            dependencies: [
                "CAvahiClient",
                "LearnModel",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(
            name: "TeamsketchServer",
            dependencies: [
                "SchoolServer",
                "ServerAnnouncer",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // Builders and helpers the test targets share.
        // Tests that reach a domain's internals (`@testable`) name its module.
        .target(name: "TeamsketchTestSupport", dependencies: ["LearnModel"] + modelDomains, path: "Tests/TestSupport"),
        .testTarget(name: "LearnModelTests", dependencies: ["LearnModel", "TeamsketchTestSupport"] + modelDomains),
        .testTarget(name: "LearnStoreTests", dependencies: ["TeamsketchTestSupport", "LearnStore", "LearnModel",
                                                    .product(name: "GRDB", package: "GRDB.swift")]),
        .testTarget(name: "LearnNetTests", dependencies: modelDomains + ["TeamsketchTestSupport", "LearnNet", "LearnModel",
                                                  .product(name: "Crypto", package: "swift-crypto"),
                                                  .product(name: "NIOCore", package: "swift-nio"),
                                                  .product(name: "NIOPosix", package: "swift-nio")]),
        .testTarget(name: "LearnRenderTests", dependencies: ["TeamsketchTestSupport", "LearnRender", "LearnModel", "CCairo"]),
        .testTarget(name: "TeamsketchCoreTests", dependencies: ["TeamsketchTestSupport", "TeamsketchCore", "LearnModel", "LearnStore",
                                                        "LearnRender",
                                                        .product(name: "GRDB", package: "GRDB.swift")]),
        .testTarget(name: "SchoolServerTests",
                    dependencies: modelDomains + ["SchoolServer", "SchoolServerAPI", "LearnModel", "LearnRender", "LearnStore", "TeamsketchCore", "SchoolClient",
                                   "LearnNet", "TeamsketchTestSupport", .product(name: "NIOPosix", package: "swift-nio"),
                                   .product(name: "Hummingbird", package: "hummingbird"),
                                   .product(name: "HummingbirdTesting", package: "hummingbird"),
                                   .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
                                   .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                                   .product(name: "ZIPFoundation", package: "ZIPFoundation"),
                                   .product(name: "Logging", package: "swift-log"),
                                   // The command line's configuration file and help.
                                   "TeamsketchServer", .product(name: "ArgumentParser", package: "swift-argument-parser")]),
        .testTarget(name: "TeamsketchDesktopTests",
                    dependencies: ["TeamsketchDesktop", "TeamsketchDesktopApp", "TeamsketchTools", "TeamsketchTestSupport", "LearnModel", "LearnStore", "LearnRender",
                                   .product(name: "GRDB", package: "GRDB.swift")]),
    ],
    swiftLanguageModes: [.v6]
)
