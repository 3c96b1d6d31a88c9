import Courier
import CourierTesting
import CourierTestSupport
import Foundation
import HTTPTypes
import Logging
import Testing

/// The guides' samples, run against `DocServer`.
@Suite(.timeLimit(.minutes(1)))
struct GuideSampleRunTests {
    @Test func startCallsTheShelf() async throws {
        let (knuth, added) = try await startCall(server: DocServer.baseURL())
        #expect(knuth.map(\.author) == ["Knuth", "Knuth"])
        #expect(added.title == "Gödel, Escher, Bach")
        #expect(added.id > 3)
    }

    @Test func startErrorsReadTheRefusal() async throws {
        let shelf = BooksAPI(provider: Provider(baseURL: try await DocServer.baseURL()))
        #expect(try await startErrors(shelf: shelf) == "HTTP 404: no book with id 404")
    }

    @Test func typedErrorBody() async throws {
        let (result, printed) = try await readBook(provider: Provider(baseURL: try await DocServer.baseURL()))
        #expect(printed == "refused with 404: no book with id 404")
        #expect(result.status == 404)
        #expect(result.book == nil)
        #expect(result.refusal?.reason == "no book with id 404")
    }

    @Test func requestStructs() async throws {
        let found = try await addAndFind(provider: Provider(baseURL: try await DocServer.baseURL()))
        #expect(!found.isEmpty && found.allSatisfy { $0.author == "Herbert" })
    }

    @Test func fluentShelfSends() async throws {
        let book = try await fluentShelf(baseURL: #require(URL(string: DocServer.baseURL())))
        #expect(book.title == "Dune")
    }

    @Test func fluentInspect() async throws {
        let shelf = Bookshelf(baseURL: try #require(URL(string: "https://books.example.com/v1")), token: "secret")
        let head = try await inspect(shelf: shelf)
        #expect(head.method == .get)
        #expect(head.authority == "books.example.com")
        #expect(head.path == "/v1/books/7")
        #expect(head.headerFields[.authorization] == "Bearer secret")
        #expect(head.headerFields[.accept] == "application/json")
    }

    @Test func pipelineProviderRuns() async throws {
        let provider = pipelineProvider(server: try await DocServer.baseURL(), logger: Logger(label: "docs"))
        let book = try await BooksAPI(provider: provider).book(id: 1)
        #expect(book.id == 1)
    }

    @Test func describedErrors() async throws {
        let shelf = BooksAPI(provider: Provider(baseURL: try await DocServer.baseURL()))
        let error = try await #require(throws: CourierError.self) { try await shelf.book(id: 404) }
        #expect(describe(error) == "the server answered 404")
        #expect(try error.errorBody(ShelfError.self)?.reason == "no book with id 404")
        let refused = try await #require(throws: CourierError.self) { try await shelf.book(id: 404) }
        #expect(throws: CourierError.self) { try refused.errorBody(Book.self) }   // not a Book: a decoding error
    }

    @Test func apiDeclarationsSend() async throws {
        let (provider, recorder) = try await TestServer.echoing(reply: #"{"id":7,"title":"Dune","author":"Herbert"}"#)
        let library = LibraryGuide.LibraryAPI(provider: provider)
        #expect(try await library.book(id: 7, expand: ["author", "reviews"]).title == "Dune")
        #expect(recorder.last?.target == "/echo/books/7?expand=author&expand=reviews")
        #expect(recorder.last?.headers.contains(["x-client", "shelf-app/2.1"]) == true)
        _ = try await library.add(title: "Dune", author: "Herbert", publishedIn: 1965)
        let body = try #require(recorder.last.flatMap { Data(base64Encoded: $0.body) })
        #expect(String(decoding: body, as: UTF8.self) == #"{"author":"Herbert","published_in":1965,"title":"Dune"}"#)
    }

    @Test func mockTransportInATest() async throws {
        // sample: testing-mock-transport
        let transport = MockTransport()
        transport.stub(.get, "/books/:id") { request in
            try .json(Book(id: 1, title: "Dune", author: "Herbert"))
        }
        let shelf = BooksAPI(provider: Provider(baseURL: "https://books.test", transport: transport))

        let book = try await shelf.book(id: 1)
        #expect(book.title == "Dune")
        #expect(transport.requests.map(\.path) == ["/books/1"])
        // end sample
    }

    @Test func replayingAnArchive() async throws {
        struct Title: Decodable, Equatable { var title: String } //-
        let archive = URL(fileURLWithPath: #filePath).deletingLastPathComponent() //-
            .appending(path: "../../CourierTests/Transports/Archives/mitmproxy-books.har") //-
        // sample: testing-replay
        let replay = try ArchiveTransport(archive: archive)
        let provider = Provider(baseURL: "http://127.0.0.1:18741", transport: replay)

        let titles = try await provider.send(
            Request(.get, "/books", receiving: .json([Title].self)).query("sort", "title").query("limit", 2)
        )
        #expect(titles.map(\.title) == ["Dune", "Emma"])
        #expect(replay.unusedEntries.count == 4)
        // end sample
    }

    @Test func recordingThenReplaying() async throws {
        let server = try await DocServer.baseURL() //-
        let fixtures = FileManager.default.temporaryDirectory.appending(path: "courier-doc-\(UUID().uuidString)") //-
        // sample: archive-record
        let archive = fixtures.appending(path: "knuth.har")
        let recorder = try ArchiveTransport(archive: archive, mode: .record, secretQueryItems: ["api_key"])
        let live = Provider(baseURL: server, transport: recorder)

        let knuth = try await live.send(
            Request(.get, "/books", receiving: .json([Book].self)).query("author", "Knuth").query("api_key", "s3cret")
        )
        // end sample
        #expect(knuth.count == 2) //-
        let written = try String(contentsOf: archive, encoding: .utf8) //-
        #expect(written.contains("api_key=%3Credacted%3E") && !written.contains("s3cret")) //-
        // sample: archive-replay
        let replay = try ArchiveTransport(archive: archive, mode: .replay)
        let offline = Provider(baseURL: server, transport: replay)

        let again = try await offline.send(
            Request(.get, "/books", receiving: .json([Book].self)).query("author", "Knuth").query("api_key", "an0ther")
        )
        #expect(again == knuth)
        #expect(replay.unusedEntries.isEmpty)
        // end sample
    }

    @Test func mockTransportFailures() async throws {
        // sample: testing-mock-failures
        let transport = MockTransport()
        transport.stub(.get, "/books/:id") { _ in
            try .json(ShelfError(reason: "no such book"), status: .notFound)
        }
        transport.stub(.post, "/books") { request in
            let book = try request.decodeBody(NewBook.self)
            return try .json(Book(id: 9, title: book.title, author: book.author), status: .created)
        }
        let shelf = BooksAPI(provider: Provider(baseURL: "https://books.test", transport: transport))

        let error = try await #require(throws: CourierError.self) { try await shelf.book(id: 1) }
        #expect(try error.errorBody(ShelfError.self)?.reason == "no such book")
        #expect(try await shelf.add(book: NewBook(title: "Dune", author: "Herbert")).id == 9)
        #expect(transport.requests.last?.headers[.contentType] == "application/json")
        // end sample
    }

    @Test func retryOnTheFlakyEndpoint() async throws {
        var provider = Provider(baseURL: try await DocServer.baseURL())
        provider.retryPolicy = RetryPolicy(maxAttempts: 2, jitter: .none)
        let book = try await provider.send(Request(.get, "/flaky/\(UUID())", receiving: .json(Book.self)))
        #expect(book.id == 1)
    }
}
