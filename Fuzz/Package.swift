// swift-tools-version: 6.2
// libFuzzer targets for Courier's parsers of what servers send. A package of its own, so that the
// main package's `swift build` and `swift test` never compile it; `run.sh` builds and runs it.
import PackageDescription

// Each harness defines `LLVMFuzzerTestOneInput` and a `main` that hands it to libFuzzer (FuzzDriver).
// run.sh instruments the whole build for libFuzzer and links its runtime, so Courier's parsers are
// coverage-instrumented too.
let harness: [SwiftSetting] = [.unsafeFlags(["-parse-as-library"])]

func fuzzTarget(_ name: String) -> Target {
    .executableTarget(
        name: name,
        dependencies: [
            .product(name: "Courier", package: "Courier"),
            .product(name: "HTTPTypes", package: "swift-http-types"),
            "FuzzDriver",
        ],
        swiftSettings: harness
    )
}

let package = Package(
    name: "CourierFuzz",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(name: "Courier", path: ".."),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
    ],
    targets: [
        .target(name: "FuzzDriver"),
        fuzzTarget("FuzzCookies"),
        fuzzTarget("FuzzURLForm"),
        fuzzTarget("FuzzHeaderValue"),
        fuzzTarget("FuzzContentType"),
        fuzzTarget("FuzzRetryAfter"),
        fuzzTarget("FuzzLink"),
    ],
    swiftLanguageModes: [.v6]
)
