// swift-tools-version: 6.1
import PackageDescription

// Targets are split by what they depend on, so the school server can link the
// model, the store-free formats and the renderer without GTK, sockets or the
// desktop's store. `scripts/check-imports.sh` (run by `make test`) enforces
// which target may import what; docs/ARCHITECTURE.md explains why.
let package = Package(
    name: "Teamsketch",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "TeamsketchDesktop", targets: ["TeamsketchDesktop"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
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
            name: "CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]
        ),
        .systemLibrary(
            name: "CAvahi",
            pkgConfig: "avahi-glib",
            providers: [.apt(["libavahi-client-dev", "libavahi-glib-dev"])]
        ),
        // Foundation only: the model every other target shares.
        // Its data files (word pools) live in resources/ at the top; the app
        // core finds them and hands the bytes in.
        .target(name: "LearnModel"),
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
            ]
        ),
        // Cairo + zlib, no GTK: rasterizing, thumbnails, file formats on disk.
        .target(
            name: "LearnRender",
            dependencies: ["LearnModel", "CCairo", "CZlib"]
        ),
        // The app's decisions without a window.
        .target(
            name: "TeamsketchCore",
            dependencies: ["LearnModel", "LearnStore", "LearnNet", "LearnRender"]
        ),
        .executableTarget(
            name: "TeamsketchDesktop",
            dependencies: [
                "CGtk",
                "CAvahi",
                "LearnModel",
                "LearnStore",
                "LearnNet",
                "LearnRender",
                "TeamsketchCore",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // Builders and helpers the test targets share.
        .target(name: "TeamsketchTestSupport", dependencies: ["LearnModel"], path: "Tests/TestSupport"),
        .testTarget(name: "LearnModelTests", dependencies: ["LearnModel", "TeamsketchTestSupport"]),
        .testTarget(name: "LearnStoreTests", dependencies: ["TeamsketchTestSupport", "LearnStore", "LearnModel",
                                                    .product(name: "GRDB", package: "GRDB.swift")]),
        .testTarget(name: "LearnNetTests", dependencies: ["TeamsketchTestSupport", "LearnNet", "LearnModel",
                                                  .product(name: "NIOCore", package: "swift-nio"),
                                                  .product(name: "NIOPosix", package: "swift-nio")]),
        .testTarget(name: "LearnRenderTests", dependencies: ["TeamsketchTestSupport", "LearnRender", "LearnModel", "CCairo"]),
        .testTarget(name: "TeamsketchCoreTests", dependencies: ["TeamsketchTestSupport", "TeamsketchCore", "LearnModel", "LearnStore",
                                                        "LearnRender",
                                                        .product(name: "GRDB", package: "GRDB.swift")]),
        .testTarget(name: "TeamsketchDesktopTests",
                    dependencies: ["TeamsketchDesktop", "TeamsketchTestSupport", "LearnModel", "LearnStore", "LearnRender",
                                   .product(name: "GRDB", package: "GRDB.swift")]),
    ],
    swiftLanguageModes: [.v6]
)
