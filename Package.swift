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
    ],
    targets: [
        .systemLibrary(
            name: "CGtk",
            pkgConfig: "gtk4",
            providers: [.apt(["libgtk-4-dev", "zlib1g-dev"])]
        ),
        .target(
            name: "LearnModel",
            dependencies: [.product(name: "GRDB", package: "GRDB.swift")],
            resources: [.copy("Resources")]
        ),
        .executableTarget(
            name: "TeamsketchDesktop",
            dependencies: [
                "CGtk",
                "LearnModel",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(name: "LearnModelTests", dependencies: ["LearnModel"]),
        .testTarget(name: "TeamsketchDesktopTests", dependencies: ["TeamsketchDesktop", "LearnModel"]),
    ],
    swiftLanguageModes: [.v6]
)
