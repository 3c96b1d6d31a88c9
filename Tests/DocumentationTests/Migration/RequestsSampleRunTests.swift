import Courier
import CourierTestSupport
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// The samples of "Migrating from Requests", run against the test server.
@Suite(.timeLimit(.minutes(1)))
struct RequestsSampleRunTests {
    /// The shelf at the test server's root, where `/users/:id` answers.
    func root() async throws -> RequestsShelf {
        .local(try #require(URL(string: try await TestServer.baseURL())))
    }

    /// The shelf under `/echo`, where every request is answered with what the server saw.
    func echo() async throws -> RequestsShelf {
        .local(try #require(URL(string: try await TestServer.baseURL("/echo"))))
    }

    @Test func getDecodesTheResource() async throws {
        #expect(try await requestsFetchMember(shelf: root()) == RequestsMember(id: 7, name: "Ada"))
    }

    @Test func completionHandlerGetsTheResponse() async throws {
        let shelf = try await root()
        let status = await withCheckedContinuation { continuation in
            requestsPerform(shelf: shelf) { continuation.resume(returning: $0) }
        }
        #expect(status == 200)
    }

    @Test func postSendsJSON() async throws {
        let shelf = try await echo()
        let donate = try await requestsDonate(shelf: shelf, book: RequestsBook(title: "Dune", author: "Herbert"))
        let seen = try await shelf.send(donate.receiving(.json(Echo.self)))
        #expect(seen.method == "POST")
        #expect(seen.path == "/echo/books")
        #expect(seen.header("content-type") == "application/json")
        #expect(seen.bodyText == #"{"author":"Herbert","title":"Dune"}"#)
    }

    @Test func bearerAndBasic() async throws {
        let shelf = try await echo()
        let (renew, audit) = requestsAuthenticated(shelf: shelf, token: "t0k3n", password: "pw")
        let renewed = try await shelf.send(renew.receiving(.json(Echo.self)))
        #expect(renewed.method == "PATCH")
        #expect(renewed.path == "/echo/loans/31")
        #expect(renewed.header("authorization") == "Bearer t0k3n")
        #expect(renewed.bodyText == #"{"days":14}"#)
        let audited = try await shelf.send(audit.receiving(.json(Echo.self)))
        #expect(audited.header("authorization") == "Basic " + Data("librarian:pw".utf8).base64EncodedString())
    }

    @Test func headerSteps() async throws {
        let shelf = try await echo()
        let seen = try await shelf.send(requestsHeaders(shelf: shelf).receiving(.json(Echo.self)))
        #expect(seen.path == "/echo/books/12/blurb")
        #expect(seen.headerValues("accept-language") == ["fr", "en;q=0.5"])
        #expect(seen.header("accept") == "text/plain")
        #expect(seen.header("cache-control") == nil)
    }

    @Test func queryInOrder() async throws {
        let shelf = try await echo()
        let seen = try await shelf.send(requestsSearch(shelf: shelf).receiving(.json(Echo.self)))
        #expect(seen.query == "q=dune&limit=30&available=true")
    }

    @Test func customHeaderName() async throws {
        let shelf = try await echo()
        let seen = try await shelf.send(requestsWithAppKey(shelf: shelf).receiving(.json(Echo.self)))
        #expect(seen.rawHeaderNames.contains("X-Shelf-App-Key"))
        #expect(seen.header("x-shelf-app-key") == "reading-room")
    }

    @Test func baseRequestKeepsItsAuthenticationThroughGet() async throws {
        let partner = RequestsPartnerShelf(baseURL: try #require(URL(string: try await TestServer.baseURL("/echo"))), appKey: "k-1", token: "t-1")
        let seen = try await partner.send(partner.get(.json(Echo.self), from: "/books"))
        #expect(seen.header("x-shelf-app-key") == "k-1")
        #expect(seen.header("authorization") == "Bearer t-1")
    }

    @Test func customDecoderAndText() async throws {
        let provider = try await TestServer.provider()
        #expect(try await provider.send(Request(.get, "/text", receiving: .isbnLines)) == ["héllo"])
        #expect(try await provider.send(Request(.get, "/latin1", receiving: .text)) == "café")
        let ascii = await #expect(throws: CourierError.self) {
            try await provider.send(Request(.get, "/text", receiving: .text(encoding: .ascii)))
        }
        #expect(ascii?.kind == .decoding)
        let shelf = try await echo()
        let (isbns, _, _) = requestsDecoders(shelf: shelf)
        // The echo of the request, one JSON line, read by the ISBN decoder: it asked for text.
        let echoed = try await shelf.send(isbns).joined(separator: "\n")
        let seen = try JSONDecoder().decode(Echo.self, from: Data(echoed.utf8))
        #expect(seen.header("accept") == "text/plain")
    }

    @Test func customAuthentication() async throws {
        let shelf = try await echo()
        let seen = try await shelf.send(shelf.get(.json(Echo.self), from: "/books").credentials(.shelfSignature("k")))
        #expect(seen.header("authorization") == "Shelf k")
    }

    @Test func customBodyProvider() async throws {
        let shelf = try await echo()
        let scan = FileManager.default.temporaryDirectory.appendingPathComponent("requests-scan-\(UUID().uuidString).pdf")
        try Data("%PDF-1.7".utf8).write(to: scan)
        defer { try? FileManager.default.removeItem(at: scan) }
        let (catalogue, scanned) = requestsImport(shelf: shelf, scan: scan)
        let seen = try await shelf.send(catalogue.receiving(.json(Echo.self)))
        #expect(seen.header("content-type") == "text/csv; charset=utf-8")
        #expect(seen.bodyText == "isbn,copies\n9780441013593,3")
        let uploaded = try await shelf.send(scanned.receiving(.json(Echo.self)))
        #expect(uploaded.method == "PUT")
        #expect(uploaded.header("content-type") == "application/pdf")
        #expect(uploaded.bodyText == "%PDF-1.7")

        let ragged = await #expect(throws: CourierError.self) {
            try await shelf.send(shelf.post(.csv([["isbn", "copies"], ["9780441013593"]]), to: "/imports"))
        }
        #expect(ragged?.kind == .encoding)
        #expect(ragged?.underlyingError is RequestsRaggedRows)
    }

    @Test func endpointBuiltAndSent() async throws {
        let (provider, recorder) = try await TestServer.echoing(reply: #"[{"stars":5,"text":"A classic"}]"#)
        let (urlRequest, reviews) = try await requestsReviews(provider: provider)
        #expect(urlRequest.url?.absoluteString == "\(try await TestServer.baseURL())/echo/books/12/reviews?minimumStars=4")
        #expect(reviews == [RequestsReviews.Review(stars: 5, text: "A classic")])
        #expect(recorder.last?.path == "/echo/books/12/reviews")
        #expect(recorder.last?.query == "minimumStars=4")
    }

    @Test func sharedPartsOnTheProvider() async throws {
        let provider = requestsSharedParts(baseURL: try #require(URL(string: try await TestServer.baseURL())))
        let seen = try await provider.send(Request(.get, "/echo/books", receiving: .json(Echo.self)))
        #expect(seen.header("x-shelf-app-key") == "reading-room")
    }

    @Test func builtWithoutSending() async throws {
        let (head, body, urlRequest) = try await requestsBuildOnly(shelf: root())
        #expect(head.method == .patch)
        #expect(head.path == "/loans/31")
        #expect(head.headerFields[.contentType] == "application/json")
        #expect(body == Data(#"{"days":14}"#.utf8))
        #expect(urlRequest.httpMethod == "PATCH")
        #expect(urlRequest.url?.absoluteString == "\(try await TestServer.baseURL())/loans/31")
    }

    @Test func receivingKeepsAuthenticationAndTimeout() async throws {
        let shelf = try await root()
        let member = requestsReceiving(shelf: shelf, token: "t-7")
        let (head, _) = try await shelf.provider.httpRequest(for: member)
        #expect(head.headerFields[.authorization] == "Bearer t-7")
        #expect(head.headerFields[.accept] == "application/json")
        #expect(try await shelf.send(member) == RequestsMember(id: 7, name: "Ada"))
        let echoShelf = try await echo()
        let seen = try await echoShelf.send(requestsReceiving(shelf: echoShelf, token: "t-8").receiving(.json(Echo.self)))
        #expect(seen.header("authorization") == "Bearer t-8")
        let urlRequest = try await shelf.provider.urlRequest(for: member)
        #expect(urlRequest.timeoutInterval == 10)
    }
}
