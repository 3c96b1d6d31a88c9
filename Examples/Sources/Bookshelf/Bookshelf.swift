// The bookshelf the demo calls and its tests replay: the values it speaks and its API.
public import Courier

/// A book on the shelf.
public struct Book: Codable, Sendable, Equatable {
    public var id: Int
    public var title: String
    public var author: String

    public init(id: Int, title: String, author: String) {
        self.id = id
        self.title = title
        self.author = author
    }
}

/// A book to add.
public struct NewBook: Codable, Sendable {
    public var title: String
    public var author: String

    public init(title: String, author: String) {
        self.title = title
        self.author = author
    }
}

/// What the shelf says of a stored review.
public struct Receipt: Codable, Sendable {
    public var bookID: Int
    public var rating: Int
    public var comment: String
}

/// What the bookshelf says when it refuses a request.
public struct ShelfError: Codable, Sendable {
    public var reason: String
}

/// Whether a book can be borrowed.
public struct Availability: Codable, Sendable {
    public var bookID: Int
    public var available: Bool
}

/// The bookshelf API declared once, as a protocol: `@API` writes `BookshelfAPI`, the client the
/// demo calls first and its tests replay.
@API
public protocol Bookshelf {
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

