// swift-tools-version: 6.2
import PackageDescription

// Public OpenAPI documents that courier-openapi was not written against, each generated into a
// module of files (`courier-openapi --output-directory`), compiled, and called against a server
// the tests start. `generate.sh` writes the modules again; the main suite checks that they are
// what the generator writes (`OpenAPIDocumentsTests` there). Documents/README.md names each
// document's source and license.
let documents = ["AirflowStable", "AirflowV2", "SymbolGraphFormat"]

let package = Package(
    name: "CourierOpenAPIDocuments",
    platforms: [.macOS(.v14), .iOS(.v17)],
    dependencies: [
        .package(name: "Courier", path: ".."),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
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
    ],
    swiftLanguageModes: [.v6]
)
