// swift-tools-version: 6.2
import PackageDescription

let upcomingFeatures: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "CourierExamples",
    platforms: [.macOS(.v14), .iOS(.v17)],
    dependencies: [
        .package(name: "Courier", path: ".."),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        // For the observability article's swift-otel sample: OTLP over HTTP only, so no gRPC is built.
        .package(url: "https://github.com/swift-otel/swift-otel", from: "1.6.0", traits: ["OTLPHTTP"]),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
    ],
    targets: [
        // The bookshelf's values, its @API protocol and its server: what the demo calls and its
        // tests replay.
        .target(
            name: "Bookshelf",
            dependencies: [
                .product(name: "Courier", package: "Courier"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: upcomingFeatures
        ),
        // The demo; its last step calls the client generated from its openapi.yaml, committed
        // as CourierDemoClient.swift so that the first `swift run` does not build the generator:
        // `swift package --allow-writing-to-package-directory generate-courier-client` writes it
        // again, and Courier's suite fails while it is not what the generator writes.
        .executableTarget(
            name: "CourierDemo",
            dependencies: [
                "Bookshelf",
                .product(name: "Courier", package: "Courier"),
                .product(name: "Logging", package: "swift-log"),
            ],
            exclude: ["openapi.yaml", "courier-openapi.json"],
            swiftSettings: upcomingFeatures
        ),
        // The demo's session, recorded once into an HTTP Archive and replayed with no server.
        .testTarget(
            name: "BookshelfTests",
            dependencies: [
                "Bookshelf",
                .product(name: "Courier", package: "Courier"),
                .product(name: "CourierTesting", package: "Courier"),
            ],
            exclude: ["Archives"],
            swiftSettings: upcomingFeatures
        ),
        // The observability article's complete setup, compiled (DocumentationTests checks it
        // against the article); `swift run CourierDemo` does not build it.
        .target(
            name: "ObservabilitySample",
            dependencies: [
                .product(name: "Courier", package: "Courier"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "OTel", package: "swift-otel"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: [
                .enableUpcomingFeature("ExistentialAny"),
                .enableUpcomingFeature("MemberImportVisibility"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
