// swift-tools-version: 6.1
import PackageDescription

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
            providers: [.apt(["libgtk-4-dev", "zlib1g-dev"])]
        ),
        .systemLibrary(
            name: "CAvahi",
            pkgConfig: "avahi-glib",
            providers: [.apt(["libavahi-client-dev", "libavahi-glib-dev"])]
        ),
        .target(
            name: "LearnModel",
            dependencies: [
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            resources: [.copy("Resources")]
        ),
        .executableTarget(
            name: "TeamsketchDesktop",
            dependencies: [
                "CGtk",
                "CAvahi",
                "LearnModel",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(name: "LearnModelTests", dependencies: ["LearnModel"]),
        .testTarget(name: "TeamsketchDesktopTests", dependencies: ["TeamsketchDesktop", "LearnModel"]),
    ],
    swiftLanguageModes: [.v6]
)
