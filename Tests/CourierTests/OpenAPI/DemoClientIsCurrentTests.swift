import CourierOpenAPIGenerator
import Foundation
import Testing

/// The README's demo calls a client generated from its openapi.yaml and committed, so that its
/// first build does not build the generator: that client is what `generate-courier-client`
/// writes today, with the options of the courier-openapi.json beside the document.
@Suite("The demo's committed OpenAPI client is current")
struct DemoClientIsCurrentTests {
    static let folder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().appendingPathComponent("../../../Examples/Sources/CourierDemo").standardized

    @Test("CourierDemoClient.swift is what the generator writes for openapi.yaml")
    func current() throws {
        let document = Self.folder.appendingPathComponent("openapi.yaml")
        let options = try JSONSerialization.jsonObject(with: Data(contentsOf: Self.folder.appendingPathComponent("courier-openapi.json"))) as? [String: Any]
        var configuration = ClientGenerator.Configuration()
        configuration.name = try #require(options?["name"] as? String, "courier-openapi.json names the client")
        let generated = try ClientGenerator(configuration: configuration).generate(try String(contentsOf: document, encoding: .utf8), fileName: document.path)
        let committed = try String(contentsOf: Self.folder.appendingPathComponent("CourierDemoClient.swift"), encoding: .utf8)
        #expect(generated.source == committed, "write it again: cd Examples && swift package --allow-writing-to-package-directory generate-courier-client --target CourierDemo")
    }
}
