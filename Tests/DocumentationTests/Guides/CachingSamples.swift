import Courier
import Foundation
import Testing

// sample: caching-api
@API
protocol BookCatalogue {
    @GET("/catalogue")
    func books() async throws -> [Book]

    @Cache(.reload)
    @GET("/catalogue")
    func latestBooks() async throws -> [Book]
}
// end sample

/// The caching article's samples, run against `DocServer`, whose `/catalogue` is fresh for a
/// minute and carries a tag.
/// One at a time: each counts the arrivals at `/catalogue`.
@Suite(.serialized, .timeLimit(.minutes(1)))
struct CachingSampleRunTests {
    struct Arrivals: Decodable { var count: Int }

    func arrivals(_ server: String) async throws -> Int {
        try await Provider(baseURL: server).send(Request(.get, "/catalogue/arrivals", receiving: .json(Arrivals.self))).count
    }

    @Test func cacheAnswersAndSays() async throws {
        let server = try await DocServer.baseURL()
        let before = try await arrivals(server)
        // sample: caching-on
        var provider = Provider(baseURL: server)
        provider.cache = HTTPCache(byteLimit: 20 << 20)

        let catalogue = BookCatalogueAPI(provider: provider)
        let books = try await catalogue.books()          // from the server, stored for a minute
        let again = try await catalogue.books()          // from the cache: nothing sent
        // end sample
        #expect(again == books)
        #expect(try await arrivals(server) == before + 1)

        // sample: caching-outcome
        let (_, response) = try await provider.send(Request(.get, "/catalogue", receiving: .withResponse(.json([Book].self))))
        switch response.cache {
        case .hit(let age): print("from the cache, \(age) old")
        case .stale(let age): print("from the cache, stale, \(age) old")
        case .revalidated: print("from the cache, confirmed by the server")
        case .unavailable: print("none stored, and the request allowed no other (504)")
        case .miss, nil: print("from the server")
        }
        // end sample
        let isHit = if case .hit = response.cache { true } else { false }
        #expect(isHit, "\(String(describing: response.cache))")

        // sample: caching-policies
        let latest = try await catalogue.latestBooks()   // @Cache(.reload): always from the server
        let offline = try await provider.send(Request(.get, "/catalogue", receiving: .json([Book].self)).cache(.onlyIfCached))
        // end sample
        #expect(offline == latest)  // what the reload stored; the shelf may have grown since
        #expect(try await arrivals(server) == before + 2)
    }

    @Test func cacheOnDiskSurvivesARestart() async throws {
        let server = try await DocServer.baseURL()
        let before = try await arrivals(server)
        func started() throws -> Provider {
            // sample: caching-disk
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("catalogue-cache")
            var provider = Provider(baseURL: server)
            provider.cache = try HTTPCache(directory: folder, byteLimit: 50 << 20)
            // end sample
            return provider
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("catalogue-cache")
        try? FileManager.default.removeItem(at: folder)
        defer { try? FileManager.default.removeItem(at: folder) }
        let books = try await BookCatalogueAPI(provider: try started()).books()
        // Started again: a new cache on the same folder answers without asking the server.
        let (again, response) = try await started().send(Request(.get, "/catalogue", receiving: .withResponse(.json([Book].self))))
        #expect(again == books)
        let isHit = if case .hit = response.cache { true } else { false }
        #expect(isHit, "\(String(describing: response.cache))")
        #expect(try await arrivals(server) == before + 1)
    }
}
