// swift-tools-version: 6.2
import CompilerPluginSupport
import PackageDescription

let upcomingFeatures: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

// What the macros' implementations use, in the plugin and in the library the macro tests link.
let macroImplementation: [Target.Dependency] = [
    .product(name: "SwiftSyntax", package: "swift-syntax"),
    .product(name: "SwiftSyntaxMacros", package: "swift-syntax"),
    .product(name: "SwiftSyntaxBuilder", package: "swift-syntax"),
    .product(name: "SwiftParser", package: "swift-syntax"),
    .product(name: "SwiftDiagnostics", package: "swift-syntax"),
]

let package = Package(
    name: "Courier",
    platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10), .visionOS(.v1)],
    products: [
        .library(name: "Courier", targets: ["Courier"]),
        .library(name: "CourierTesting", targets: ["CourierTesting"]),
        .library(name: "CourierAsyncHTTPClient", targets: ["CourierAsyncHTTPClient"]),
        .library(name: "CourierXML", targets: ["CourierXML"]),
        .executable(name: "courier-openapi", targets: ["courier-openapi"]),
        .plugin(name: "CourierOpenAPIPlugin", targets: ["CourierOpenAPIPlugin"]),
        .plugin(name: "CourierOpenAPICommand", targets: ["CourierOpenAPICommand"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-openapi-runtime", from: "1.13.4"),
        .package(url: "https://github.com/apple/swift-openapi-urlsession", from: "1.4.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.7.3"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swiftlang/swift-syntax", "600.0.0"..<"604.0.0"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/swift-server/swift-openapi-async-http-client", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        .package(url: "https://github.com/CoreOffice/XMLCoder", from: "0.18.2"),
        // The OpenAPI generator's alone: a package that uses the Courier product builds neither.
        // OpenAPIKit's default trait (loading external references) is left off: it builds slower.
        .package(url: "https://github.com/mattpolzin/OpenAPIKit", from: "6.4.0", traits: []),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        // Test-only.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/pointfreeco/swift-macro-testing", from: "0.7.0"),
        // Test-only: the TLS server's certificates, good and bad, made in the test process.
        .package(url: "https://github.com/apple/swift-certificates", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-crypto", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/apple/swift-asn1", from: "1.7.4"),
        // Test-only: a raw HTTP/2 server that says GOAWAY.
        .package(url: "https://github.com/apple/swift-nio-http2", from: "1.46.0"),
        // Documentation: `swift package generate-documentation`.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        .target(
            name: "Courier",
            dependencies: [
                "CourierMacros",
                "CourierWire",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "Instrumentation", package: "swift-distributed-tracing"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                // On Linux the default transport is AsyncHTTPClient; Apple builds never compile NIO.
                .target(name: "CourierHTTPClientTransport", condition: .when(platforms: [.linux])),
                .product(name: "NIOSSL", package: "swift-nio-ssl", condition: .when(platforms: [.linux])),
            ],
            swiftSettings: upcomingFeatures
        ),
        // The shapes a request and a response take between the pipeline and a transport — the
        // head, the body read whole or still arriving, fields converted when first read — below
        // both `Courier` and the AsyncHTTPClient transport, so that the transport hands the
        // pipeline its own values. `package` access only: nothing here is public API.
        .target(
            name: "CourierWire",
            dependencies: [
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
            ],
            swiftSettings: upcomingFeatures
        ),
        // The AsyncHTTPClient transport itself, without Courier, so that `Courier` can use it as
        // its Linux default and `CourierAsyncHTTPClient` can offer it everywhere.
        .target(
            name: "CourierHTTPClientTransport",
            dependencies: [
                "CourierWire",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTP2", package: "swift-nio-http2"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOTLS", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ],
            swiftSettings: upcomingFeatures
        ),
        .macro(
            name: "CourierMacros",
            dependencies: macroImplementation + [.product(name: "SwiftCompilerPlugin", package: "swift-syntax")],
            swiftSettings: upcomingFeatures
        ),
        .target(
            name: "CourierAsyncHTTPClient",
            dependencies: [
                "Courier",
                "CourierHTTPClientTransport",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
            ],
            swiftSettings: upcomingFeatures
        ),
        .target(
            name: "CourierXML",
            dependencies: ["Courier", .product(name: "XMLCoder", package: "XMLCoder")],
            swiftSettings: upcomingFeatures
        ),
        .target(
            name: "CourierTesting",
            dependencies: [
                "Courier",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
            ],
            swiftSettings: upcomingFeatures
        ),
        // The Hummingbird server and helpers the test targets share.
        .target(
            name: "CourierTestSupport",
            dependencies: [
                "Courier",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                .product(name: "HummingbirdHTTP2", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOHTTP2", package: "swift-nio-http2"),
                .product(name: "NIOHPACK", package: "swift-nio-http2"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Tests/CourierTestSupport",
            swiftSettings: upcomingFeatures
        ),
        // The generator behind `courier-openapi`: an OpenAPI document to a Courier client.
        .target(
            name: "CourierOpenAPIGenerator",
            dependencies: [
                .product(name: "OpenAPIKit", package: "OpenAPIKit"),
                .product(name: "OpenAPIKit30", package: "OpenAPIKit"),
                .product(name: "OpenAPIKitCompat", package: "OpenAPIKit"),
                .product(name: "Yams", package: "Yams"),
            ],
            swiftSettings: upcomingFeatures
        ),
        .executableTarget(
            name: "courier-openapi",
            dependencies: ["CourierOpenAPIGenerator"],
            swiftSettings: upcomingFeatures
        ),
        // The client generated at build time from a target's openapi.yaml.
        .plugin(name: "CourierOpenAPIPlugin", capability: .buildTool(), dependencies: ["courier-openapi"]),
        // The client written into the package, for those who commit it.
        .plugin(
            name: "CourierOpenAPICommand",
            capability: .command(
                intent: .custom(verb: "generate-courier-client", description: "Writes the Courier client of each target that has an openapi.yaml into its sources"),
                permissions: [.writeToPackageDirectory(reason: "writes <Target>Client.swift beside the target's openapi.yaml")]
            ),
            dependencies: ["courier-openapi"]
        ),
        .testTarget(
            name: "CourierTests",
            dependencies: [
                "Courier",
                "CourierWire",
                "CourierOpenAPIGenerator",
                "courier-openapi",
                "CourierTesting",
                "CourierAsyncHTTPClient",
                "CourierXML",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "OpenAPIAsyncHTTPClient", package: "swift-openapi-async-http-client"),
                .product(name: "OpenAPIURLSession", package: "swift-openapi-urlsession"),
                .product(name: "NIOCore", package: "swift-nio"),
                "CourierTestSupport",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "MetricsTestKit", package: "swift-metrics"),
            ],
            // Archives the replay tests read by path, and the script that recorded them.
            exclude: ["Transports/Archives", "OpenAPI/Documents"],
            swiftSettings: upcomingFeatures
        ),
        // Code as users write it: the examples of Papyrus' README must compile here unchanged,
        // so this target does not require `any` on existentials.
        .testTarget(
            name: "PapyrusCompatibilityTests",
            dependencies: ["Courier", "CourierTestSupport"],
            swiftSettings: [
                .enableUpcomingFeature("MemberImportVisibility"),
                .enableUpcomingFeature("InternalImportsByDefault"),
            ]
        ),
        // Every Swift sample of the README and the DocC articles, compiled here; the samples that
        // talk to a server run against one started by the tests.
        .testTarget(
            name: "DocumentationTests",
            dependencies: [
                "Courier",
                "CourierTesting",
                "CourierXML",
                "CourierAsyncHTTPClient",
                "CourierTestSupport",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
                .product(name: "MetricsTestKit", package: "swift-metrics"),
                .product(name: "Hummingbird", package: "hummingbird"),
            ],
            swiftSettings: upcomingFeatures
        ),
        // The macros' implementations (symbolic links to Sources/CourierMacros, less its `@main`)
        // as a library for the macro tests. Were those tests to depend on the macro target itself,
        // every test target and all it uses (NIO, BoringSSL, Hummingbird, OpenAPIKit…) would be
        // compiled a second time, for the host, since tests that use a macro target run there.
        .target(
            name: "CourierMacroExpansions",
            dependencies: macroImplementation,
            path: "Tests/CourierMacroExpansions",
            swiftSettings: upcomingFeatures
        ),
        .testTarget(
            name: "CourierMacrosTests",
            dependencies: [
                "CourierMacroExpansions",
                .product(name: "MacroTesting", package: "swift-macro-testing"),
                .product(name: "SwiftSyntaxMacrosTestSupport", package: "swift-syntax"),
                .product(name: "SwiftSyntaxMacros", package: "swift-syntax"),
                .product(name: "SwiftSyntaxMacroExpansion", package: "swift-syntax"),
                .product(name: "SwiftParser", package: "swift-syntax"),
            ],
            swiftSettings: upcomingFeatures
        ),
    ],
    swiftLanguageModes: [.v6]
)
