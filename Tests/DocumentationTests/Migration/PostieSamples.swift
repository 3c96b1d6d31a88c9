// The Courier samples of the article "Migrating from Postie", compiled;
// `PostieSampleRunTests` runs those that talk to a server.
import Courier
import CourierTesting
import CourierXML
import Foundation
#if canImport(Combine)
import Combine
#endif
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// sample: postie-models
struct PostieBook: Codable, Sendable, Equatable {
    var id: Int
    var title: String
}

struct PostieNewBook: Codable, Sendable {
    var title: String
    var firstPublished: Int
}

struct PostieAuthor: Codable, Sendable, Equatable {
    var id: Int
    var name: String
}

struct PostieAPIError: Codable, Sendable, Equatable {
    var message: String
    var code: Int
}
// end sample

// MARK: - The tour

// sample: postie-tour
@KeyMapping(.snakeCase)
@Endpoint(.post, "/shelves/{shelf_id}")
struct PostieRenameShelf {
    struct Changes: Encodable, Sendable {
        var displayName: String
    }

    @EndpointResponse
    struct Response {
        struct Shelf: Decodable, Sendable {
            var displayName: String
        }

        struct Failure: Decodable, Sendable {
            var message: String
        }

        @ResponseBody var shelf: Shelf?
        @ResponseErrorBody var failure: Failure?
        @ResponseHeader var contentType: String
        @ResponseStatusCode var statusCode: Int
        @ResponseCookies var cookies: [Cookie]
    }

    @PathParameter(name: "shelf_id") var shelfID: String
    @RequestHeader var authorization: String? = nil
    @RequestCookies var cookies: [Cookie] = []
    @RequestBody var body: Changes
}
// end sample

// sample: postie-tour-send
func postieRenameShelf(provider: Provider) async throws -> (PostieRenameShelf.Response, [String]) { //-
var printed: [String] = [] //-
func print(_ items: Any...) { printed.append(items.map { "\($0)" }.joined(separator: " ")) } //-
var request = PostieRenameShelf(shelfID: "shelf-1", body: .init(displayName: "Novels"))
request.authorization = "Bearer my-token"

let response = try await provider.send(request)
print(response.statusCode, response.contentType)
if let shelf = response.shelf { print(shelf.displayName) }
if let failure = response.failure { print(failure.message) }
return (response, printed) //-
} //-
// end sample

// MARK: - Declaring requests

// sample: postie-no-body
@Endpoint(.get, "/health")
struct PostieHealthCheck {
    typealias Response = EmptyResponse
}
// end sample

// sample: postie-bodies
@Endpoint(.post, "/books")
struct PostieAddBook {
    typealias Response = PostieBook
    @RequestBody var body: PostieNewBook                      // application/json
}

@Endpoint(.post, "/books/search")
struct PostieSearchForm {
    struct Terms: Encodable, Sendable {
        var query: String
        var page: Int
    }

    typealias Response = [PostieBook]
    @RequestBody(.urlForm) var body: Terms                    // application/x-www-form-urlencoded
}

@Endpoint(.post, "/books/import")
struct PostieImportBook {
    typealias Response = EmptyResponse
    @RequestBody(.xml) var body: PostieNewBook                // application/xml (CourierXML)
}

@Endpoint(.put, "/books/{id}/notes")
struct PostieSaveNote {
    typealias Response = EmptyResponse
    @PathParameter var id: Int
    @RequestBody(.text(encoding: .isoLatin1)) var body: String    // text/plain; charset=iso-8859-1
}
// end sample

// sample: postie-text-per-value
func postieSaveNote(provider: Provider, text: String, encoding: String.Encoding) async throws { //-
let note = Request(.put, "/books/:id/notes", receiving: .none)
    .parameter("id", 4)
    .body(.text(text, encoding: encoding))
try await provider.send(note)
} //-
// end sample

// sample: postie-form-fields
@URLForm
@Endpoint(.post, "/sessions")
struct PostieSignIn {
    typealias Response = EmptyResponse
    @BodyField var username: String
    @BodyField var password: String
}
// end sample

// sample: postie-key-mapping
@KeyMapping(.snakeCase)
@Endpoint(.post, "/books")
struct PostieAddBookSnakeCase {
    typealias Response = PostieBook
    @RequestBody var body: PostieNewBook    // {"first_published":1965,"title":"Dune"}
}

func postieSnakeCaseProvider() -> Provider { //-
let provider = Provider(baseURL: "https://api.example.com", keyMapping: .snakeCase)   // every request
return provider //-
} //-
// end sample

// MARK: - Method, path, query, headers

// sample: postie-method-path
@Endpoint
struct PostieShelfReader {
    typealias Response = EmptyResponse
    @RequestHTTPMethod var method: HTTPRequest.Method = .get
    @RequestPath var path = "/shelves/{id}/readers/{rid}"
    @PathParameter var id: Int
    @PathParameter(name: "rid") var readerID: String
}

func postieAddReader(provider: Provider) async throws { //-
var request = PostieShelfReader(id: 12, readerID: "R-7")
request.method = .post
try await provider.send(request)   // POST /shelves/12/readers/R-7
} //-
// end sample

// sample: postie-query
@Endpoint(.get, "/books")
struct PostieFindBooks {
    typealias Response = [PostieBook]
    @QueryItem var title: String
    @QueryItem(name: "author_name") var author: String
    @QueryItem var edition: Int? = nil      // left out when nil
    @QueryItem var tags: [String] = []      // tags=a&tags=b
}

func postieFindBooks(provider: Provider) async throws -> [PostieBook] { //-
let books = try await provider.send(PostieFindBooks(title: "Dune", author: "Frank Herbert", tags: ["sf", "classic"]))
// GET /books?title=Dune&author_name=Frank%20Herbert&tags=sf&tags=classic
return books //-
} //-
// end sample

// sample: postie-headers
@Endpoint(.get, "/books/{id}")
struct PostieBookDetails {
    typealias Response = PostieBook
    @PathParameter var id: Int
    @RequestHeader var requestID: String                        // Request-ID
    @RequestHeader(name: "x-client") var client: String         // x-client, exactly as written
    @RequestHeader var ifNoneMatch: String? = nil               // If-None-Match, left out when nil
}
// end sample

// MARK: - Responses

// sample: postie-response-body
@EndpointResponse
struct PostieAuthorBody {
    @ResponseBody var author: PostieAuthor      // JSON, for 2xx and 3xx
}

@Endpoint(.get, "/authors/{id}")
struct PostieGetAuthorBody {
    typealias Response = PostieAuthorBody
    @PathParameter var id: Int
}
// end sample

// sample: postie-response-formats
@EndpointResponse(format: .xml)
struct PostieAuthorXML {
    @ResponseBody var author: PostieAuthor      // CourierXML; asks with Accept: application/xml
}

@EndpointResponse(format: .urlForm)
struct PostieReaderForm {
    struct Reader: Decodable, Sendable {
        var userName: String
        var age: Int

        enum CodingKeys: String, CodingKey {
            case userName = "user_name", age
        }
    }

    @ResponseBody var reader: Reader            // Accept: application/x-www-form-urlencoded
}

@EndpointResponse
struct PostieBlurb {
    @ResponseBody var text: String              // text in the response's charset
}
// end sample

// sample: postie-response-format-endpoints
@Endpoint(.get, "/authors/{id}.xml")
struct PostieAuthorAsXML {
    typealias Response = PostieAuthorXML
    @PathParameter var id: Int
}

@Endpoint(.get, "/readers/me")
struct PostieCurrentReader {
    typealias Response = PostieReaderForm
}

@Endpoint(.get, "/books/{id}/blurb")
struct PostieBookBlurb {
    typealias Response = PostieBlurb
    @PathParameter var id: Int
}
// end sample

// sample: postie-plain-response
@Endpoint(.get, "/books/{id}/summary")
struct PostieBookSummary {
    typealias Response = String
    @PathParameter var id: Int
}
// end sample

// sample: postie-error-body
@EndpointResponse
struct PostieAuthorResult {
    @ResponseStatusCode var statusCode: Int
    @ResponseBody var author: PostieAuthor?         // 2xx and 3xx
    @ResponseErrorBody var error: PostieAPIError?   // 400 and above; never both
}

@Endpoint(.get, "/authors/{id}")
struct PostieGetAuthor {
    typealias Response = PostieAuthorResult
    @PathParameter var id: Int
}
// end sample

// sample: postie-strategies
enum PostieQueuedOnly: ResponseStatusStrategy {
    static func accepts(status: Int) -> Bool { status == 202 }
    static func allowsEmptyBody(for status: Int) -> Bool { false }
}

@EndpointResponse
struct PostieImportResult {
    @ResponseBody(status: 201) var created: PostieAuthor?
    @ResponseBody(strategy: PostieQueuedOnly.self) var queued: PostieAuthor?
    @ResponseErrorBody(statuses: 400..<500) var rejected: PostieAPIError?
    @ResponseErrorBody(statuses: [502, 503]) var unavailable: PostieAPIError?
}

@Endpoint(.post, "/authors/import")
struct PostieImportAuthor {
    typealias Response = PostieImportResult
    @RequestBody var body: PostieAuthor
}
// end sample

// sample: postie-response-headers
@EndpointResponse
struct PostieAuthorHeaders {
    @ResponseHeader var contentType: String                   // Content-Type; missing fails
    @ResponseHeader(name: "X-Total-Count") var total: Int       // read as an Int
    @ResponseHeader var lastModified: Date?                   // Last-Modified; nil when missing
}
// end sample

// sample: postie-status-code
@EndpointResponse
struct PostieDeletion {
    @ResponseStatusCode var statusCode: Int
}

@Endpoint(.delete, "/books/{id}")
struct PostieDeleteBook {
    typealias Response = PostieDeletion
    @PathParameter var id: Int
}
// end sample

// sample: postie-nested
@EndpointResponse
struct PostiePaged<Page: ResponseDecodable> {
    @ResponseHeader(name: "X-Total-Count") var totalElements: Int
    @NestedResponse var page: Page
}

@EndpointResponse
struct PostieAuthorPage {
    @ResponseBody var author: PostieAuthor
}

@Endpoint(.get, "/authors")
struct PostieListAuthors {
    typealias Response = PostiePaged<PostieAuthorPage>
    @QueryItem var page: Int
}
// end sample

// sample: postie-mixed-formats
struct PostieMixedAuthor: ResponseDecodable {
    var author: PostieAuthor?
    var error: PostieAPIError?

    init(from response: Courier.Response, decoder: any BodyDecoder) throws(CourierError) {
        author = try response.decodeBody(PostieAuthor.self, decoder: XMLBodyDecoder(), when: .success)
        error = try response.decodeBody(PostieAPIError.self, decoder: decoder, when: .failure)
    }

    static var acceptedContentType: String? { "application/xml" }
}
// end sample

@Endpoint(.get, "/authors/{id}.xml") //-
struct PostieMixedAuthorRequest { //-
    typealias Response = PostieMixedAuthor //-
    @PathParameter var id: Int //-
} //-

// MARK: - Cookies

// sample: postie-cookies
@EndpointResponse
struct PostieSessionResult {
    @ResponseCookies var cookies: [Cookie]          // every Set-Cookie of the response
}

@Endpoint(.get, "/session")
struct PostieResumeSession {
    typealias Response = PostieSessionResult
    @RequestCookies var cookies: [Cookie]           // sent in one Cookie header
}

func postieResume(provider: Provider) async throws -> [Cookie] { //-
let result = try await provider.send(PostieResumeSession(cookies: [Cookie(name: "session", value: "abc")]))
return result.cookies //-
} //-
// end sample

// sample: postie-cookie-jar
func postieCookieJarProvider() -> Provider { //-
let provider = Provider(baseURL: "https://api.example.com").with(cookieJar: CookieJar())
return provider //-
} //-
// end sample

// MARK: - Sending

// sample: postie-provider
func postieProvider() -> Provider { //-
let provider = Provider(baseURL: "https://api.example.com")
return provider //-
} //-
// end sample

// sample: postie-async
func postieAsync(provider: Provider) async -> [String] { //-
var printed: [String] = [] //-
func print(_ items: Any...) { printed.append(items.map { "\($0)" }.joined(separator: " ")) } //-
do {
    let result = try await provider.send(PostieGetAuthor(id: 7))
    print(result.statusCode, result.author?.name ?? "-")
} catch {
    print(error.kind, error.message)   // error is a CourierError
}
return printed //-
} //-
// end sample

// sample: postie-callback
func postieCallback(provider: Provider, done: @escaping @Sendable (String) -> Void) { //-
func print(_ items: Any...) { done(items.map { "\($0)" }.joined(separator: " ")) } //-
provider.send(PostieGetAuthor(id: 7)) { result in
    switch result {
    case .success(let response): print(response.statusCode)
    case .failure(let error): print(error.kind)
    }
}
} //-
// end sample

#if canImport(Combine) //-
// sample: postie-combine
func postieCombine(provider: Provider, cancellables: inout Set<AnyCancellable>) { //-
provider.publisher(for: PostieGetAuthor(id: 7))
    .sink(receiveCompletion: { completion in
        if case .failure(let error) = completion { print(error.kind) }
    }, receiveValue: { response in
        print(response.statusCode)
    })
    .store(in: &cancellables)
} //-
// end sample
#endif //-

// MARK: - Encoding and decoding without sending

// sample: postie-encode-only
func postieEncodeOnly(provider: Provider) async throws -> (URLRequest, HTTPRequest, Data?) { //-
let urlRequest = try await provider.urlRequest(for: Request(PostieGetAuthor(id: 7)))   // a Foundation URLRequest

let book = PostieNewBook(title: "Dune", firstPublished: 1965)
let (head, body) = try await provider.httpRequest(for: Request(PostieAddBook(body: book)))   // HTTPRequest and Data
return (urlRequest, head, body) //-
} //-
// end sample

// sample: postie-decode-only
func postieDecodeOnly(provider: Provider) async throws -> PostieAuthorResult { //-
let response = try await provider.send(Request(PostieGetAuthor(id: 7)).receiving(.response))
let result = try PostieAuthorResult(from: response, decoder: JSONDecoder())
return result //-
} //-
// end sample

// MARK: - Testing

// sample: postie-testing
func postieMocked() async throws -> (PostieAuthorResult, MockTransport) { //-
let mock = MockTransport()
mock.stub(.get, "/authors/:id") { request in
    try .json(PostieAuthor(id: Int(request.parameters["id"] ?? "") ?? 0, name: "Ursula"))
}
let provider = Provider(baseURL: "https://api.test", transport: mock)

let result = try await provider.send(PostieGetAuthor(id: 7))
// result.author?.name == "Ursula"; mock.requests.first?.path == "/authors/7"
return (result, mock) //-
} //-
// end sample

// MARK: - Defects

// sample: postie-defect-xml
func postieXMLBody(provider: Provider) async throws -> (HTTPRequest, Data?) { //-
let book = PostieNewBook(title: "Dune", firstPublished: 1965)
let (head, body) = try await provider.httpRequest(for: Request(PostieImportBook(body: book)))
// head.headerFields[.contentType] == "application/xml; charset=utf-8"
// body: <?xml …?><PostieNewBook><title>Dune</title><firstPublished>1965</firstPublished></PostieNewBook>
return (head, body) //-
} //-
// end sample

// sample: postie-defect-text
@Endpoint(.post, "/books/{id}/review")
struct PostieReview {
    typealias Response = EmptyResponse
    @PathParameter var id: Int
    @RequestBody var body: String    // text/plain; charset=utf-8, the text as it is
}
// end sample

// sample: postie-defect-nil-path
@Endpoint(.get, "/shelves/{shelf}/books")
struct PostieShelfBooks {
    typealias Response = [PostieBook]
    @PathParameter var shelf: String?
}

func postieNilPath(provider: Provider) async -> CourierError? { //-
func print(_ items: Any...) {} //-
do {
    _ = try await provider.send(PostieShelfBooks(shelf: nil))
} catch {
    print(error.kind, error.message)   // .invalidRequest, naming 'shelf'; nothing is sent
    return error //-
}
return nil //-
} //-
// end sample

// sample: postie-defect-decoding
@EndpointResponse
struct PostieCheckedAuthor {
    @ResponseBody var author: PostieAuthor
    @ResponseHeader(name: "X-Rate-Remaining") var remaining: Int?
}

@Endpoint(.get, "/authors/{id}")
struct PostieGetCheckedAuthor {
    typealias Response = PostieCheckedAuthor
    @PathParameter var id: Int
}

@Endpoint(.get, "/books")
struct PostieAllBooks {
    typealias Response = [PostieBook]    // a top-level array
}

func postieDecodingFailure(provider: Provider) async -> CourierError? { //-
func print(_ items: Any...) {} //-
do {
    _ = try await provider.send(PostieGetCheckedAuthor(id: 7))
} catch {
    // .decoding: "… 'X-Rate-Remaining' … 'not-a-number' …", or the type and key path of a bad body
    print(error.kind, error.message)
    return error //-
}
return nil //-
} //-
// end sample
