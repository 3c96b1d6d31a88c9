// The samples of the articles that walk through Courier (getting started, the three front-ends,
// the pipeline, errors, testing), compiled; `GuideSampleRunTests` runs them against `DocServer`.
import Courier
import CourierTesting
import Foundation
import HTTPTypes
import Logging
import OpenAPIRuntime

// MARK: Getting started

// sample: start-call
func startCall(server: String) async throws -> ([Book], Book) { //-
func Provider(baseURL: String) -> Courier.Provider { Courier.Provider(baseURL: server) } //-
let shelf = BooksAPI(provider: Provider(baseURL: "https://books.example.com/v1"))

let knuth = try await shelf.books(author: "Knuth", limit: 10)
let added = try await shelf.add(book: NewBook(title: "Gödel, Escher, Bach", author: "Hofstadter"))
return (knuth, added) //-
} //-
// end sample

// sample: start-errors
func startErrors(shelf: BooksAPI) async throws -> String? { //-
var printed: String? //-
func print(_ text: String) { printed = text } //-
do {
    _ = try await shelf.book(id: 404)
} catch let error as CourierError where error.kind == .status {
    let refusal = try error.errorBody(ShelfError.self)
    print("HTTP \(error.response?.statusCode ?? 0): \(refusal?.reason ?? "no reason given")")
}
return printed //-
} //-
// end sample

// MARK: Protocols with macros

enum LibraryGuide { //-
// sample: api-parameters
@API
@Headers(["X-Client": "shelf-app/2.1"])
@KeyMapping(.snakeCase)
protocol Library {
    // `id` fills the placeholder; `expand` is a query item: /books/7?expand=author&expand=reviews
    @GET("/books/:id")
    func book(id: Int, expand: [String]) async throws -> Book

    // On POST, PUT and PATCH, unmarked parameters are the fields of a JSON body.
    @POST("/books")
    func add(title: String, author: String, publishedIn: Int?) async throws -> Book

    // Marked parameters say where they go; a header's name is its own, in Capital-Kebab-Case.
    @PUT("/books/:id")
    func replace(id: Path<Int>, book: Body<NewBook>, ifMatch: Header<String>) async throws -> Book

    @URLForm
    @POST("/books/:id/reviews")
    func review(id: Int, rating: Int, comment: String) async throws

    @Multipart
    @POST("/books/:id/cover")
    func upload(id: Int, cover: Part) async throws

    @DELETE("/books/:id")
    func remove(id: Int) async throws -> Response   // the response whatever its status
}
// end sample
} //-

enum ReturnsGuide { //-
// sample: api-returns
@API
protocol Shelf {
    @GET("/books/:id")
    func book(id: Int) async throws -> Book                  // decoded, or a CourierError

    @GET("/books/:id")
    func bookIfAny(id: Int) async throws -> Book?            // nil for an empty body

    @GET("/books/:id")
    func bookAndResponse(id: Int) async throws -> (Book, Response)

    @GET("/exports/:id")
    func export(id: Int) async throws -> String              // text, in the response's charset

    @GET("/books/:id")
    func bookLater(id: Int, completion: @escaping (Result<Book, any Error>) -> Void)
}
// end sample
} //-

// MARK: Request structs

// sample: endpoint-typed-error
@Endpoint(.get, "/books/{id}")
struct GetBook {
    typealias Response = BookResult
    @PathParameter var id: Int
}

@EndpointResponse
struct BookResult {
    @ResponseStatusCode var status: Int
    @ResponseBody var book: Book?                 // when the status is 2xx or 3xx
    @ResponseErrorBody var refusal: ShelfError?   // when it is 4xx or 5xx
}

func readBook(provider: Provider) async throws -> (BookResult, String) { //-
var printed = "" //-
func print(_ text: String) { printed = text } //-
let result = try await provider.send(GetBook(id: 404))
if let refusal = result.refusal { print("refused with \(result.status): \(refusal.reason)") }
return (result, printed) //-
} //-
// end sample

// sample: endpoint-plain
@Endpoint(.post, "/books")
struct AddBook {
    typealias Response = Book                     // decoded as JSON; a failing status throws
    @RequestBody var book: NewBook
}

@Endpoint(.get, "/books")
struct FindBooks {
    typealias Response = [Book]
    @QueryItem var author: String?
    @QueryItem var limit: Int? = nil
}

func addAndFind(provider: Provider) async throws -> [Book] { //-
let added = try await provider.send(AddBook(book: NewBook(title: "Dune", author: "Herbert")))
let byHerbert = try await provider.send(FindBooks(author: added.author))
return byHerbert //-
} //-
// end sample

// MARK: The fluent builder

// sample: fluent-bookshelf
struct Bookshelf: WebService {
    var baseURL: URL
    var token: String

    func book(_ id: Int) -> Request<Book> {
        get(.json(Book.self), from: "/books/:id").parameter("id", id).credentials(.bearer(token))
    }

    func add(_ book: NewBook) -> Request<Book> {
        post(.json(book), to: "/books").receiving(.json(Book.self)).credentials(.bearer(token))
    }
}

func fluentShelf(baseURL: URL) async throws -> Book { //-
let shelf = Bookshelf(baseURL: baseURL, token: "secret")
let added = try await shelf.send(shelf.add(NewBook(title: "Dune", author: "Herbert")))
let again = try await shelf.send(shelf.book(added.id).timeout(.seconds(30)))
return again //-
} //-
// end sample

// sample: fluent-inspect
func inspect(shelf: Bookshelf) async throws -> HTTPRequest { //-
let (head, _) = try await shelf.provider.httpRequest(for: shelf.book(7))
// GET https://books.example.com/v1/books/7, with Accept and Authorization set
return head //-
} //-
// end sample

// MARK: The pipeline

// sample: pipeline-provider
struct RequestID: RequestModifier {
    func modify(req: inout RequestBuilder) throws {
        req.addHeader("X-Request-ID", value: UUID().uuidString)
    }
}

func pipelineProvider(server: String, logger: Logger) -> Provider { //-
func Provider(baseURL: String, modifiers: [any RequestModifier]) -> Courier.Provider { Courier.Provider(baseURL: server, modifiers: modifiers) } //-
let provider = Provider(baseURL: "https://books.example.com/v1", modifiers: [RequestID()])
    .intercept { request, next in
        let started = ContinuousClock.now
        let response = try await next(request)
        logger.info("\(request.method) \(request.path) \(response.status.code) in \(ContinuousClock.now - started)")
        return response
    }
    .validating { response in
        if response.headers[.contentType] == "text/html" { throw UnexpectedPage() }
    }
    .with(cookieJar: CookieJar())
return provider //-
} //-
// end sample
struct UnexpectedPage: Error {} //-

// sample: pipeline-redirects
func redirectingProvider() -> Provider { //-
var provider = Provider(baseURL: "https://books.example.com/v1")
provider.redirects = .follow(dropping: [HTTPField.Name("X-API-Key")!])   // besides Authorization and Cookie
provider.timeouts = Timeouts(connect: .seconds(5), idle: .seconds(20), total: .seconds(60))
provider.responseBodyLimit = 8 << 20                                      // 8 MiB
return provider //-
} //-
// end sample

// MARK: Errors

// sample: errors-switch
func describe(_ error: CourierError) -> String {
    switch error.kind {
    case .status:
        return "the server answered \(error.response?.statusCode ?? 0)"
    case .timeout, .transport:
        return "the network failed: \(error.message)"
    case .decoding:
        return "unexpected answer from \(error.operationID ?? "a request"): \(error.message)"
    case .cancelled:
        return "cancelled"
    default:
        return error.description
    }
}
// end sample
