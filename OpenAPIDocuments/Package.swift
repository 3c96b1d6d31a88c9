// swift-tools-version: 6.2
import PackageDescription

// Public OpenAPI documents that courier-openapi was not written against, each client compiled
// and called on both transports. Kept out of Courier's own package so that its first build and
// `swift test` take minutes; `.ci/run` tests this package too, and Courier's suite checks that
// every committed client is what the generator writes, without compiling them.
//
// - Sources/: public documents generated into modules of files (`courier-openapi
//   --output-directory`), called against servers the tests start. `generate.sh` writes them
//   again; Documents/README.md names each document's source and license.
// - Peers/: the documents of swift-openapi-generator 1.14.3, one module each: the client
//   courier-openapi writes and the server swift-openapi-generator writes for the same document,
//   served by PeerServer. `Peers/generate.sh` writes both again.
let documents = ["AirflowStable", "AirflowV2", "SymbolGraphFormat"]

let peers = [
    "AuthGreeting", "BidirectionalStreams", "ChantGPT", "ContentTypes", "EventStreams", "Greeting", "GreetingCount",
    "IntegrationGreeting", "OpenAI", "Petstore", "SwaggerGreeting", "TutorialGreeting", "TypeOverrides",
]

let upcomingFeatures: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "CourierOpenAPIDocuments",
    platforms: [.macOS(.v14), .iOS(.v17)],
    dependencies: [
        .package(name: "Courier", path: ".."),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/swift-openapi-hummingbird", from: "2.1.0"),
        .package(url: "https://github.com/apple/swift-openapi-runtime", from: "1.13.4"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    ],
    targets: documents.map { name in
        .target(name: name, dependencies: [.product(name: "Courier", package: "Courier")])
    } + [
        .testTarget(
            name: "OpenAPIDocumentsTests",
            dependencies: documents.map { .target(name: $0) } + [
                .product(name: "Courier", package: "Courier"),
                .product(name: "Hummingbird", package: "hummingbird"),
            ],
            resources: [.copy("Payloads")]
        ),
    ] + peers.map { name in
        .target(
            name: "OpenAPIPeer\(name)",
            dependencies: [
                .product(name: "Courier", package: "Courier"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            path: "Peers/\(name)",
            exclude: ["openapi.yaml"] + (name == "OpenAI" ? [] : ["openapi-generator-config.yaml"]),
            swiftSettings: upcomingFeatures
        )
    } + [
        // OpenAI's server alone: swift-openapi-generator's code for it uses what the document
        // marks deprecated, and those warnings are not Courier's.
        .target(
            name: "OpenAPIPeerOpenAIServer",
            dependencies: [
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            path: "Peers/OpenAIServer",
            exclude: ["openapi-generator-config.yaml"],
            swiftSettings: upcomingFeatures + [.unsafeFlags(["-suppress-warnings"])]
        ),
        // A Hummingbird server that answers every document of Peers at /peers/<name>.
        .target(
            name: "OpenAPIPeerServer",
            dependencies: [
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "OpenAPIHummingbird", package: "swift-openapi-hummingbird"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "Logging", package: "swift-log"),
            ] + (peers.filter { $0 != "OpenAI" } + ["OpenAIServer"]).map { .target(name: "OpenAPIPeer\($0)") },
            path: "PeerServer",
            swiftSettings: upcomingFeatures
        ),
        .testTarget(
            name: "OpenAPIPeersTests",
            dependencies: [
                "OpenAPIPeerServer",
                .product(name: "Courier", package: "Courier"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
            ] + peers.map { .target(name: "OpenAPIPeer\($0)") },
            swiftSettings: upcomingFeatures
        ),
    ],
    swiftLanguageModes: [.v6]
)
