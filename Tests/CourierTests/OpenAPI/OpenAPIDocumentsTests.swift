import CourierOpenAPIGenerator
import Foundation
import Testing

/// The public documents of `OpenAPIDocuments/`, which that package compiles and calls: their
/// committed clients, written as files, are what the generator writes today.
@Suite("The OpenAPI documents package's clients are current")
struct OpenAPIDocumentsCurrencyTests {
    static let package = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().appendingPathComponent("../../../OpenAPIDocuments").standardized

    @Test("Each document's files, by name and content", arguments: ["AirflowStable", "AirflowV2", "SymbolGraphFormat"])
    func current(name: String) throws {
        let document = Self.package.appendingPathComponent("Documents/\(name)/openapi.yaml")
        let generated = try ClientGenerator().generate(try String(contentsOf: document, encoding: .utf8), fileName: document.path)
        let folder = Self.package.appendingPathComponent("Sources/\(name)")
        let committed = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".swift") }
        let regenerate = "regenerate with: swift build --product courier-openapi && OpenAPIDocuments/generate.sh"
        #expect(Set(committed) == Set(generated.files.map(\.name)), "\(regenerate)")
        for file in generated.files {
            let text = try? String(contentsOf: folder.appendingPathComponent(file.name), encoding: .utf8)
            #expect(text == file.source, "\(name)/\(file.name): \(regenerate)")
        }
        // A models file holds at most 4,000 lines of models, besides its imports; Airflow 3.1's
        // models need more than one.
        if name == "AirflowV2" { #expect(generated.files.filter { $0.name.contains("Models") }.count >= 2) }
        for file in generated.files where file.name.contains("Models") {
            #expect(file.source.split(separator: "\n", omittingEmptySubsequences: false).count <= 4_010, "\(file.name)")
        }
    }
}
