import Courier
import Foundation

struct Book: Codable, Sendable {
    var id: Int
    var title: String
    var author: String
}

struct NewBook: Codable, Sendable {
    var title: String
    var author: String
}

struct Receipt: Codable, Sendable {
    var bookID: Int
    var rating: Int
    var comment: String
}

/// The bookshelf API, declared once.
@API
protocol Bookshelf {
    @GET("/books/:id")
    func book(id: Int) async throws -> Book

    @GET("/books")
    func books(author: String, limit: Int?) async throws -> [Book]

    @POST("/books")
    func add(book: Body<NewBook>) async throws -> Book

    @URLForm
    @POST("/books/:id/reviews")
    func review(id: Int, rating: Int, comment: String) async throws -> Receipt
}

/// Prints each request as it goes out and each response as it comes back.
struct Printer: Interceptor {
    func intercept(req: RawRequest, next: Next) async throws -> Response {
        var req = req
        let sent = try await req.collectBody().map { String(decoding: $0, as: UTF8.self) }
        print("→ \(req.method) \(req.path)")
        for field in req.headers { print("    \(field.name): \(field.value)") }
        if let sent { print("    \(sent)") }
        let res = try await next(req)
        print("← \(res)")
        if let text = res.bodyText { print("    \(text)") }
        return res
    }
}

let port = try await BookServer.start()
let provider = Provider(baseURL: "http://127.0.0.1:\(port)/", interceptors: [Printer()])
let shelf: any Bookshelf = BookshelfAPI(provider: provider)

print("Courier demo — a bookshelf API on 127.0.0.1:\(port)\n")

print("1. GET with a path value")
let book = try await shelf.book(id: 2)
print("   got \(book.title) by \(book.author)\n")

print("2. GET with query items (nil ones left out)")
let knuth = try await shelf.books(author: "Knuth", limit: nil)
print("   got \(knuth.count) books: \(knuth.map(\.title).joined(separator: "; "))\n")

print("3. POST a JSON body")
let added = try await shelf.add(book: NewBook(title: "Gödel, Escher, Bach", author: "Hofstadter"))
print("   created book \(added.id)\n")

print("4. POST a URL-encoded form")
let receipt = try await shelf.review(id: added.id, rating: 5, comment: "strange loops & more")
print("   review of book \(receipt.bookID) stored: \(receipt.rating)★ \"\(receipt.comment)\"\n")

print("5. A 404, caught as CourierError")
do {
    _ = try await shelf.book(id: 404)
    print("   unexpected: the request succeeded")
    exit(1)
} catch let error as CourierError where error.kind == .status {
    print("   caught \(error.kind) error from \(error.operationID ?? "?"): status \(error.response?.statusCode ?? 0)")
    print("   server said: \(error.response?.bodyText ?? "")")
}

print("\nDone.")
