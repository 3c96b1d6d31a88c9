import Courier
import CourierTestSupport
import CourierTesting
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// A provider on the test server that sends every request as `GET route`, so that a sample keeps
/// its own bookshelf path while its response is one of the server's canned ones (`/typed/:status`,
/// `/xml`, `/form-response`, `/text`, `/cookies`, `/invalid-json`).
private func served(by route: String) async throws -> Provider {
    try await TestServer.provider().intercept { req, next in
        var req = req
        req.method = .get
        req.path = route
        return try await next(req)
    }
}

@Endpoint(.get, "/authors/{id}")
private struct ReadHeaders {
    typealias Response = PostieAuthorHeaders
    @PathParameter var id: Int
}

@Endpoint(.get, "/twice")
private struct SameNames {
    typealias Response = EmptyResponse
    @QueryItem(name: "tag") var first: String
    @QueryItem(name: "tag") var second: String
    @RequestHeader(name: "X-Tag") var one: String
    @RequestHeader(name: "X-Tag") var two: String
}

/// Runs the samples of "Migrating from Postie" against the test server.
@Suite(.timeLimit(.minutes(1)))
struct PostieSampleRunTests {
    // MARK: The tour

    @Test func tourSendsTheRequestAndReadsTheSuccess() async throws {
        let (provider, seen) = try await TestServer.echoing(reply: #"{"display_name":"Novels"}"#)
        let (response, printed) = try await postieRenameShelf(provider: provider)
        #expect(response.statusCode == 200)
        #expect(response.shelf?.displayName == "Novels")
        #expect(response.failure == nil)
        #expect(printed == ["200 application/json", "Novels"])
        let echo = try #require(seen.last)
        #expect(echo.method == "POST")
        #expect(echo.path == "/echo/shelves/shelf-1")
        #expect(echo.header("authorization") == "Bearer my-token")
        #expect(echo.header("content-type") == "application/json")
        #expect(echo.bodyText == #"{"display_name":"Novels"}"#)
    }

    @Test func tourReadsTheErrorBody() async throws {
        let (provider, _) = try await TestServer.echoing(reply: #"{"message":"no such shelf"}"#, status: .notFound)
        let (response, printed) = try await postieRenameShelf(provider: provider)
        #expect(response.statusCode == 404)
        #expect(response.shelf == nil)
        #expect(response.failure?.message == "no such shelf")
        #expect(printed == ["404 application/json", "no such shelf"])
    }

    // MARK: Requests

    @Test func requestWithoutBody() async throws {
        let (provider, seen) = try await TestServer.echoing()
        _ = try await provider.send(PostieHealthCheck())
        #expect(seen.last?.path == "/echo/health")
        #expect(seen.last?.bodyIsEmpty == true)
        let (failing, _) = try await TestServer.echoing(status: .serviceUnavailable)
        let error = await #expect(throws: CourierError.self) { try await failing.send(PostieHealthCheck()) }
        #expect(error?.kind == .status)
    }

    @Test func bodiesInEachFormat() async throws {
        let (provider, seen) = try await TestServer.echoing(reply: #"{"id":1,"title":"Dune"}"#)
        let added = try await provider.send(PostieAddBook(body: PostieNewBook(title: "Dune", firstPublished: 1965)))
        #expect(added == PostieBook(id: 1, title: "Dune"))
        #expect(seen.last?.header("content-type") == "application/json")
        #expect(seen.last?.bodyText == #"{"firstPublished":1965,"title":"Dune"}"#)

        let (lists, listSeen) = try await TestServer.echoing(reply: "[]")
        #expect(try await lists.send(PostieSearchForm(body: .init(query: "dune", page: 2))).isEmpty)
        #expect(listSeen.last?.header("content-type") == "application/x-www-form-urlencoded")
        #expect(listSeen.last?.bodyText == "query=dune&page=2")

        _ = try await provider.send(PostieImportBook(body: PostieNewBook(title: "Dune", firstPublished: 1965)))
        #expect(seen.last?.header("content-type") == "application/xml; charset=utf-8")
        #expect(seen.last?.bodyText.contains("<title>Dune</title>") == true)
        #expect(seen.last?.bodyText.contains("<firstPublished>1965</firstPublished>") == true)

        _ = try await provider.send(PostieSaveNote(id: 4, body: "Great read"))
        #expect(seen.last?.method == "PUT")
        #expect(seen.last?.path == "/echo/books/4/notes")
        #expect(seen.last?.header("content-type") == "text/plain; charset=iso-8859-1")
        let note = try #require(seen.last?.bodyData)
        #expect(String(data: note, encoding: .isoLatin1) == "Great read")
    }

    @Test func textEncodingPerValue() async throws {
        let (provider, seen) = try await TestServer.echoing()
        try await postieSaveNote(provider: provider, text: "café", encoding: .isoLatin1)
        #expect(seen.last?.path == "/echo/books/4/notes")
        #expect(seen.last?.header("content-type") == "text/plain; charset=iso-8859-1")
        #expect(seen.last?.bodyData == Data([0x63, 0x61, 0x66, 0xE9]))
    }

    @Test func formFields() async throws {
        let (provider, seen) = try await TestServer.echoing()
        _ = try await provider.send(PostieSignIn(username: "ada", password: "s3cret"))
        #expect(seen.last?.header("content-type") == "application/x-www-form-urlencoded")
        #expect(seen.last?.bodyText == "username=ada&password=s3cret")
    }

    @Test func snakeCaseKeys() async throws {
        let (provider, seen) = try await TestServer.echoing(reply: #"{"id":2,"title":"Dune"}"#)
        _ = try await provider.send(PostieAddBookSnakeCase(body: PostieNewBook(title: "Dune", firstPublished: 1965)))
        #expect(seen.last?.bodyText == #"{"first_published":1965,"title":"Dune"}"#)
        let book = PostieNewBook(title: "Dune", firstPublished: 1965)
        let (_, body) = try await postieSnakeCaseProvider().httpRequest(for: Request(PostieAddBook(body: book)))
        #expect(body.map { String(decoding: $0, as: UTF8.self) } == #"{"first_published":1965,"title":"Dune"}"#)
    }

    @Test func methodAndPathPerValue() async throws {
        let (provider, seen) = try await TestServer.echoing()
        try await postieAddReader(provider: provider)
        #expect(seen.last?.method == "POST")
        #expect(seen.last?.path == "/echo/shelves/12/readers/R-7")
        _ = try await provider.send(PostieShelfReader(id: 1, readerID: "a b"))
        #expect(seen.last?.method == "GET")
        #expect(seen.last?.path == "/echo/shelves/1/readers/a%20b")
    }

    @Test func queryItems() async throws {
        let (provider, seen) = try await TestServer.echoing(reply: #"[{"id":1,"title":"Dune"}]"#)
        #expect(try await postieFindBooks(provider: provider) == [PostieBook(id: 1, title: "Dune")])
        #expect(seen.last?.query == "title=Dune&author_name=Frank%20Herbert&tags=sf&tags=classic")
    }

    @Test func repeatedNamesAreAllSent() async throws {
        let (provider, seen) = try await TestServer.echoing()
        _ = try await provider.send(SameNames(first: "a", second: "b", one: "c", two: "d"))
        #expect(seen.last?.query == "tag=a&tag=b")
        #expect(seen.last?.headerValues("x-tag") == ["c", "d"])
    }

    @Test func requestHeaders() async throws {
        let (provider, seen) = try await TestServer.echoing(reply: #"{"id":3,"title":"Emma"}"#)
        _ = try await provider.send(PostieBookDetails(id: 3, requestID: "r-1", client: "shelf-app"))
        let echo = try #require(seen.last)
        #expect(echo.header("request-id") == "r-1")
        #expect(echo.rawHeaderNames.contains("x-client"))
        #expect(echo.header("x-client") == "shelf-app")
        #expect(echo.header("if-none-match") == nil)
    }

    // MARK: Responses

    @Test func responseBody() async throws {
        let found = try await served(by: "/typed/200").send(PostieGetAuthorBody(id: 200))
        #expect(found.author == PostieAuthor(id: 200, name: "Ada"))
        let error = await #expect(throws: CourierError.self) { try await served(by: "/typed/404").send(PostieGetAuthorBody(id: 1)) }
        #expect(error?.kind == .status)
    }

    @Test func responseFormats() async throws {
        let xml = try await served(by: "/xml").send(PostieAuthorAsXML(id: 7))
        #expect(xml.author == PostieAuthor(id: 7, name: "Ada & Co"))
        let form = try await served(by: "/form-response").send(PostieCurrentReader())
        #expect(form.reader.userName == "Ada Lovelace")
        #expect(form.reader.age == 36)
        #expect(try await served(by: "/text").send(PostieBookBlurb(id: 1)).text == "héllo")
        #expect(try await served(by: "/text").send(PostieBookSummary(id: 1)) == "héllo")
    }

    @Test func acceptFollowsTheFormat() async throws {
        let (provider, seen) = try await TestServer.echoing(reply: "<a><id>1</id><name>N</name></a>")
        _ = try? await provider.send(PostieAuthorAsXML(id: 1))
        #expect(seen.last?.header("accept") == "application/xml")
        #expect(seen.last?.path == "/echo/authors/1.xml")
    }

    @Test func errorBody() async throws {
        let ok = try await served(by: "/typed/200").send(PostieGetAuthor(id: 200))
        #expect(ok.statusCode == 200)
        #expect(ok.author?.name == "Ada")
        #expect(ok.error == nil)
        let missing = try await served(by: "/typed/404").send(PostieGetAuthor(id: 404))
        #expect(missing.statusCode == 404)
        #expect(missing.author == nil)
        #expect(missing.error == PostieAPIError(message: "failed with 404", code: 404))
    }

    @Test func perStatusStrategies() async throws {
        let author = PostieAuthor(id: 1, name: "Ada")
        let created = try await served(by: "/typed/201").send(PostieImportAuthor(body: author))
        #expect(created.created?.id == 201)
        #expect(created.queued == nil)
        let queued = try await served(by: "/typed/202").send(PostieImportAuthor(body: author))
        #expect(queued.created == nil)
        #expect(queued.queued?.id == 202)
        let rejected = try await served(by: "/typed/422").send(PostieImportAuthor(body: author))
        #expect(rejected.rejected?.code == 422)
        #expect(rejected.unavailable == nil)
        let unavailable = try await served(by: "/typed/503").send(PostieImportAuthor(body: author))
        #expect(unavailable.unavailable?.code == 503)
        #expect(unavailable.rejected == nil)
        let other = try await served(by: "/typed/200").send(PostieImportAuthor(body: author))
        #expect(other.created == nil && other.queued == nil && other.rejected == nil && other.unavailable == nil)
    }

    @Test func responseHeaders() async throws {
        let headers = try await served(by: "/typed/200").send(ReadHeaders(id: 1))
        #expect(headers.contentType == "application/json")
        #expect(headers.total == 42)
        #expect(headers.lastModified == Date(timeIntervalSince1970: 1_792_567_680))
        let noHeaders = await #expect(throws: CourierError.self) { try await served(by: "/cookies").send(ReadHeaders(id: 1)) }
        #expect(noHeaders?.kind == .decoding)
    }

    @Test func statusCodes() async throws {
        let deleted = try await served(by: "/typed/204").send(PostieDeleteBook(id: 9))
        #expect(deleted.statusCode == 204)
    }

    @Test func nestedResponse() async throws {
        let paged = try await served(by: "/typed/200").send(PostieListAuthors(page: 2))
        #expect(paged.totalElements == 42)
        #expect(paged.page.author == PostieAuthor(id: 200, name: "Ada"))
    }

    @Test func mixedFormats() async throws {
        let xml = try await served(by: "/xml").send(PostieMixedAuthorRequest(id: 7))
        #expect(xml.author?.name == "Ada & Co")
        #expect(xml.error == nil)
        let failed = try await served(by: "/typed/404").send(PostieMixedAuthorRequest(id: 7))
        #expect(failed.author == nil)
        #expect(failed.error?.code == 404)
    }

    @Test func cookies() async throws {
        let received = try await postieResume(provider: served(by: "/cookies"))
        #expect(received.map(\.name) == ["a", "b"])
        let (provider, seen) = try await TestServer.echoing()
        _ = try await postieResume(provider: provider)
        #expect(seen.last?.header("cookie") == "session=abc")
    }

    // MARK: Sending

    @Test func asyncAwait() async throws {
        #expect(try await postieAsync(provider: served(by: "/typed/200")) == ["200 Ada"])
        #expect(try await postieAsync(provider: served(by: "/typed/404")) == ["404 -"])
        let failure = try await postieAsync(provider: served(by: "/invalid-json"))
        #expect(failure.first?.hasPrefix("decoding") == true)
    }

    @Test func completionHandler() async throws {
        let provider = try await served(by: "/typed/200")
        let printed = await withCheckedContinuation { continuation in
            postieCallback(provider: provider) { continuation.resume(returning: $0) }
        }
        #expect(printed == "200")
    }

    @Test func encodeWithoutSending() async throws {
        let (urlRequest, head, body) = try await postieEncodeOnly(provider: Provider(baseURL: "https://api.example.com"))
        #expect(urlRequest.url?.absoluteString == "https://api.example.com/authors/7")
        #expect(urlRequest.value(forHTTPHeaderField: "Accept") == "application/json")
        #expect(head.method == .post)
        #expect(head.path == "/books")
        #expect(body.map { String(decoding: $0, as: UTF8.self) } == #"{"firstPublished":1965,"title":"Dune"}"#)
    }

    @Test func decodeASeparateResponse() async throws {
        let result = try await postieDecodeOnly(provider: served(by: "/typed/404"))
        #expect(result.statusCode == 404)
        #expect(result.error?.code == 404)
    }

    @Test func mockTransport() async throws {
        let (result, mock) = try await postieMocked()
        #expect(result.author == PostieAuthor(id: 7, name: "Ursula"))
        #expect(mock.requests.first?.path == "/authors/7")
    }

    @Test func compileOnlyProvidersAreUsable() {
        #expect(postieProvider().baseURL?.absoluteString == "https://api.example.com")
        #expect(postieCookieJarProvider().baseURL?.absoluteString == "https://api.example.com")
    }

    // MARK: Defects

    @Test func xmlRequestHasABody() async throws {
        let (head, body) = try await postieXMLBody(provider: Provider(baseURL: "https://api.example.com"))
        #expect(head.headerFields[.contentType] == "application/xml; charset=utf-8")
        let text = try #require(body.map { String(decoding: $0, as: UTF8.self) })
        #expect(text.hasPrefix("<?xml"))
        #expect(text.contains("<PostieNewBook><title>Dune</title><firstPublished>1965</firstPublished></PostieNewBook>"))
    }

    @Test func textIsLabelledText() async throws {
        let (provider, seen) = try await TestServer.echoing()
        _ = try await provider.send(PostieReview(id: 5, body: "Loved it"))
        #expect(seen.last?.header("content-type") == "text/plain; charset=utf-8")
        #expect(seen.last?.bodyText == "Loved it")
    }

    @Test func nilPathValueIsAnError() async throws {
        let transport = RecordingTransport()
        let error = await postieNilPath(provider: Provider(baseURL: try await TestServer.baseURL(), transport: transport))
        #expect(error?.kind == .invalidRequest)
        #expect(error?.message.contains("'shelf'") == true)
        #expect(error?.message.contains("nil") == false)
        #expect(transport.count == 0)
    }

    @Test func decodingFailuresAreErrors() async throws {
        let header = await postieDecodingFailure(provider: try await served(by: "/typed/200"))
        #expect(header?.kind == .decoding)
        #expect(header?.message.contains("'X-Rate-Remaining'") == true)
        #expect(header?.message.contains("not-a-number") == true)
        let body = await postieDecodingFailure(provider: try await served(by: "/invalid-json"))
        #expect(body?.kind == .decoding)
        #expect(body?.message.contains("PostieAuthor") == true)
        #expect(body?.message.contains("'id'") == true)
        let (provider, _) = try await TestServer.echoing(reply: #"[{"id":1,"title":"Dune"},{"id":2,"title":"Emma"}]"#)
        #expect(try await provider.send(PostieAllBooks()).map(\.title) == ["Dune", "Emma"])
    }
}
