// swift-tools-version: 6.1
// Builds swift-openapi-generator's command-line tool for `make api`, which
// regenerates Sources/SchoolServerAPI/Generated from openapi.yaml. The
// generated code is committed, so neither `make test` nor CI builds this.
import PackageDescription

let package = Package(
    name: "OpenAPITool",
    dependencies: [
        .package(url: "https://github.com/apple/swift-openapi-generator", exact: "1.14.3"),
    ]
)
