// The bookshelf API that the articles' samples call, declared once, and the server behind it.
import Courier
import Foundation

// sample: bookshelf-types
struct Book: Codable, Sendable, Equatable {
    var id: Int
    var title: String
    var author: String
}

struct NewBook: Codable, Sendable {
    var title: String
    var author: String
}

/// What the bookshelf answers with when it refuses a request.
struct ShelfError: Codable, Sendable, Error {
    var reason: String
}
// end sample

// sample: bookshelf-api
@API
protocol Books {
    @GET("/books/:id")
    func book(id: Int) async throws -> Book

    @GET("/books")
    func books(author: String?, limit: Int?) async throws -> [Book]

    @POST("/books")
    func add(book: Body<NewBook>) async throws -> Book

    @DELETE("/books/:id")
    func remove(id: Int) async throws
}
// end sample
