import Foundation
import Hummingbird
import Logging
import NIOCore

/// A small bookshelf API served on 127.0.0.1 with an OS-chosen port, for the demo to call.
enum BookServer {
    struct StoredBook: Codable, Sendable {
        var id: Int
        var title: String
        var author: String
    }

    actor Shelf {
        var books: [StoredBook] = [
            StoredBook(id: 1, title: "Structure and Interpretation of Computer Programs", author: "Abelson"),
            StoredBook(id: 2, title: "The Art of Computer Programming", author: "Knuth"),
            StoredBook(id: 3, title: "Concrete Mathematics", author: "Knuth"),
        ]
        var reviews: [String] = []

        func add(title: String, author: String) -> StoredBook {
            let book = StoredBook(id: (books.map(\.id).max() ?? 0) + 1, title: title, author: author)
            books.append(book)
            return book
        }

        func review(_ text: String) { reviews.append(text) }
    }

    struct NewBook: Decodable { var title: String; var author: String }
    struct Review: Decodable { var rating: Int; var comment: String }
    struct Receipt: ResponseEncodable { var bookID: Int; var rating: Int; var comment: String }

    /// Starts the server and returns its port once it listens.
    static func start() async throws -> Int {
        let shelf = Shelf()
        let router = Router()
        router.get("/books/:id") { _, context -> StoredBook in
            let id = try context.parameters.require("id", as: Int.self)
            guard let book = await shelf.books.first(where: { $0.id == id }) else {
                throw HTTPError(.notFound, message: "no book with id \(id)")
            }
            return book
        }
        router.get("/books") { request, _ -> [StoredBook] in
            let author = request.uri.queryParameters["author"].map(String.init)
            let limit = request.uri.queryParameters["limit"].flatMap { Int(String($0)) } ?? .max
            return Array(await shelf.books.filter { author == nil || $0.author == author }.prefix(limit))
        }
        router.post("/books") { request, context -> EditedResponse<StoredBook> in
            let new = try await request.decode(as: NewBook.self, context: context)
            return EditedResponse(status: .created, response: await shelf.add(title: new.title, author: new.author))
        }
        router.post("/books/:id/reviews") { request, context -> Receipt in
            let id = try context.parameters.require("id", as: Int.self)
            let buffer = try await request.body.collect(upTo: 64 * 1024)
            let review = try URLEncodedFormDecoder().decode(Review.self, from: String(buffer: buffer))
            await shelf.review(review.comment)
            return Receipt(bookID: id, rating: review.rating, comment: review.comment)
        }

        let (ports, continuation) = AsyncStream<Int>.makeStream()
        var logger = Logger(label: "book-server")
        logger.logLevel = .error
        let app = Application(
            router: router,
            configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in
                continuation.yield(channel.localAddress?.port ?? 0)
                continuation.finish()
            },
            logger: logger
        )
        Task.detached { try await app.run() }
        for await port in ports where port != 0 { return port }
        throw HTTPError(.internalServerError, message: "the demo server did not start")
    }
}

extension BookServer.StoredBook: ResponseEncodable {}
