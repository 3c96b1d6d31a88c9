import Bookshelf
import Courier
import Foundation
import Logging

// Style 1, the bookshelf API declared as an @API protocol, is in Sources/Bookshelf/Bookshelf.swift.

// Style 2: a request as a value of its own type, with a typed response that reads the book on
// success and the shelf's own error body on failure.
@Endpoint(.get, "/books/{id}")
struct GetBook {
    typealias Response = BookLookup
    @PathParameter var id: Int
}

@EndpointResponse
struct BookLookup {
    @ResponseStatusCode var status: Int
    @ResponseBody var book: Book?
    @ResponseErrorBody var refusal: ShelfError?
}

/// Prints each request as it goes out and each response as it comes back.
struct Printer: Interceptor {
    func intercept(req: RawRequest, next: Next) async throws -> Response {
        var req = req
        let sent = try await req.collectBody().map { String(decoding: $0, as: UTF8.self) }
        print("   → \(req.method) \(req.path)\(req.attempt > 1 ? " (attempt \(req.attempt))" : "")")
        if let sent { print("     \(sent)") }
        let res = try await next(req)
        print("   ← \(res)")
        if !req.streamsResponse, let text = res.bodyText, !text.isEmpty { print("     \(text)") }
        return res
    }
}

let port = try await BookServer.start()
let provider = Provider(baseURL: "http://127.0.0.1:\(port)/", interceptors: [Printer()])
let shelf: any Bookshelf = BookshelfAPI(provider: provider)

print("Courier demo — a bookshelf API on 127.0.0.1:\(port), called three ways\n")

print("1. @API protocol: GET with a path value")
let book = try await shelf.book(id: 2)
print("   got \(book.title) by \(book.author)\n")

print("2. @API protocol: GET with query items (nil ones left out)")
let knuth = try await shelf.books(author: "Knuth", limit: nil)
print("   got \(knuth.count) books: \(knuth.map(\.title).joined(separator: "; "))\n")

print("3. @API protocol: POST a JSON body")
let added = try await shelf.add(book: NewBook(title: "Gödel, Escher, Bach", author: "Hofstadter"))
print("   created book \(added.id)\n")

print("4. @API protocol: POST a URL-encoded form")
let receipt = try await shelf.review(id: added.id, rating: 5, comment: "strange loops & more")
print("   review of book \(receipt.bookID) stored: \(receipt.rating)★ \"\(receipt.comment)\"\n")

print("5. A request struct with a typed response: a 404 and the shelf's error body, no catch needed")
let lookup = try await provider.send(GetBook(id: 404))
print("   status \(lookup.status), book: \(lookup.book?.title ?? "none"), refusal: \(lookup.refusal?.reason ?? "none")\n")

print("6. The same 404 through @API: a CourierError carrying the typed error body")
do {
    _ = try await shelf.book(id: 404)
    print("   unexpected: the request succeeded")
    exit(1)
} catch let error as CourierError where error.kind == .status {
    let refusal = try error.errorBody(ShelfError.self)
    print("   caught \(error.kind) error from \(error.operationID ?? "?"): status \(error.response?.statusCode ?? 0)")
    print("   the shelf said: \(refusal?.reason ?? "nothing")\n")
}

print("7. The fluent builder: a request built at the call site")
let firstByKnuth = Request(.get, "/books", receiving: .json([Book].self))
    .query("author", "Knuth")
    .query("limit", 1)
    .header(.acceptLanguage, "en")
let oneBook = try await provider.send(firstByKnuth)
print("   got \(oneBook.map(\.title).joined())\n")

print("8. A stream: the whole shelf as JSON Lines, each book decoded as it arrives")
for try await item in try await provider.send(Request(.get, "/books/export", receiving: .jsonLines(Book.self))) {
    print("   streamed book \(item.id): \(item.title)")
}
print()

print("9. A retry: the server is busy the first time (503), the retry policy tries again")
var retrying = provider
retrying.retryPolicy = RetryPolicy(maxAttempts: 3, jitter: .none)
let availability = try await retrying.send(Request(.get, "/books/2/availability", receiving: .json(Availability.self)))
print("   book \(availability.bookID) available: \(availability.available)\n")

print("10. A log line: a provider with a logger writes one entry per request")
var logger = Logger(label: "bookshelf", factory: { StreamLogHandler.standardOutput(label: $0) })
logger.logLevel = .debug
var logged = Provider(baseURL: "http://127.0.0.1:\(port)/")
logged.observability.logger = logger
_ = try await BookshelfAPI(provider: logged).book(id: 1)

print("\n11. A client generated from an OpenAPI document: openapi.yaml beside this file, by generate-courier-client")
// sample: openapi-call
let catalog = ShelfCatalogAPI(provider: provider)
let entries = try await catalog.findBooks(author: "Knuth", limit: 1)
// end sample
print("   found \(entries.map { "\($0.title) (book \($0.id))" }.joined())")
// sample: openapi-answer
let answer = try await catalog.entry(id: 404)
if let problem = answer.error { print("   \(answer.status): \(problem.reason)") }
// end sample

print("\nDone.")
