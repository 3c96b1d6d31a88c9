import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore

/// A small bookshelf API served on 127.0.0.1 with an OS-chosen port, for the demo to call.
public enum BookServer {
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
        var availabilityChecks = 0

        func add(title: String, author: String) -> StoredBook {
            let book = StoredBook(id: (books.map(\.id).max() ?? 0) + 1, title: title, author: author)
            books.append(book)
            return book
        }

        func review(_ text: String) { reviews.append(text) }

        func checkAvailability() -> Int {
            availabilityChecks += 1
            return availabilityChecks
        }
    }

    struct NewBook: Decodable { var title: String; var author: String }
    struct Review: Decodable { var rating: Int; var comment: String }
    struct Receipt: ResponseEncodable { var bookID: Int; var rating: Int; var comment: String }

    /// Starts the server and returns its port once it listens.
    public static func start() async throws -> Int {
        let shelf = Shelf()
        let router = Router()
        router.get("/books/:id") { _, context -> Response in
            let id = try context.parameters.require("id", as: Int.self)
            guard let book = await shelf.books.first(where: { $0.id == id }) else {
                return json(#"{"reason":"no book with id \#(id)"}"#, status: .notFound)
            }
            return json(String(decoding: try JSONEncoder().encode(book), as: UTF8.self))
        }
        // Every book as JSON Lines, one line per chunk, a little apart.
        router.get("/books/export") { _, _ -> Response in
            let books = await shelf.books
            let body = ResponseBody { writer in
                for book in books {
                    var line = try JSONEncoder().encode(book)
                    line.append(UInt8(ascii: "\n"))
                    try await writer.write(ByteBuffer(bytes: line))
                    try await Task.sleep(for: .milliseconds(50))
                }
                try await writer.finish(nil)
            }
            return Response(status: .ok, headers: [.contentType: "application/jsonl"], body: body)
        }
        // Busy the first time it is asked, then fine: something for a retry policy to absorb.
        router.get("/books/:id/availability") { _, context -> Response in
            let id = try context.parameters.require("id", as: Int.self)
            if await shelf.checkAvailability() == 1 {
                return Response(status: .serviceUnavailable, headers: [.retryAfter: "0"])
            }
            return json(#"{"bookID":\#(id),"available":true}"#)
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

private func json(_ text: String, status: HTTPResponse.Status = .ok) -> Response {
    Response(status: status, headers: [.contentType: "application/json"], body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
}
