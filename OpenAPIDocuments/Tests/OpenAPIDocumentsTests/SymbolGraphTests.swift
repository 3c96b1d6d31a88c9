import Courier
import Foundation
import Hummingbird
@testable import SymbolGraphFormat
import Testing

/// The symbol graph format (swift-docc-symbolkit's OpenAPI document, models only), generated and
/// read from the graph Swift's compiler wrote for a module of its own, served by a test server.
@Suite("The symbol graph format, generated and read from the compiler's own graph", .timeLimit(.minutes(1)))
struct SymbolGraphTests {
    static let port: Task<Int, any Error> = Task {
        try await startServer { router in
            router.get("/Shelf.symbols.json") { _, _ in try payload("Shelf.symbols") }
        }
    }

    @Test("Every symbol and relationship of the graph, with its kind, names and documentation", arguments: Transport.allCases)
    func graph(transport: Transport) async throws {
        let provider = transport.provider(port: try await Self.port.value)
        let graph = try await provider.send(Courier.Request(.get, "/Shelf.symbols.json", receiving: .json(SymbolGraph.self, decoder: SymbolGraphCoding.decoder)))
        #expect(graph.module.name == "Shelf")
        #expect(graph.metadata.generator.hasPrefix("Swift version"))
        #expect(Set(graph.symbols.map { $0.names.title }) == ["Book", "title", "init(title:)", "Shelving", "books"])
        let book = try #require(graph.symbols.first { $0.names.title == "Book" })
        #expect(book.docComment?.lines.map(\.text) == ["A book on a shelf."])
        #expect(graph.relationships.count == 5)
    }
}
