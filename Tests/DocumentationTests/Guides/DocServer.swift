import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore

/// The server the documentation's samples run against: the bookshelf, users, a stream of
/// notifications, pages of issues, uploads and exports, and endpoints that fail on purpose.
enum DocServer {
    actor State {
        var books = [
            Book(id: 1, title: "Structure and Interpretation of Computer Programs", author: "Abelson"),
            Book(id: 2, title: "The Art of Computer Programming", author: "Knuth"),
            Book(id: 3, title: "Concrete Mathematics", author: "Knuth"),
        ]
        var seen: [String: Int] = [:]

        func add(_ book: NewBook) -> Book {
            let added = Book(id: (books.map(\.id).max() ?? 0) + 1, title: book.title, author: book.author)
            books.append(added)
            return added
        }

        /// How many times `key` was asked for before, counting this time.
        func count(_ key: String) -> Int {
            seen[key, default: 0] += 1
            return seen[key, default: 0]
        }
    }

    private static let started = Task<Int, any Error> { try await start() }

    /// The base URL of the server, started on first use.
    static func baseURL() async throws -> String { "http://127.0.0.1:\(try await started.value)" }

    static func port() async throws -> Int { try await started.value }

    private static func json(_ value: some Encodable, status: HTTPResponse.Status = .ok) throws -> Response {
        let data = try JSONEncoder().encode(value)
        return Response(status: status, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    private static func start() async throws -> Int {
        let state = State()
        let router = Router()
        router.get("/users/:id") { _, context in
            let id = try context.parameters.require("id", as: Int.self)
            if id == 404 { return try json(ShelfError(reason: "no user 404"), status: .notFound) }
            return try json(User(id: id, name: "Ada"))
        }
        router.get("/books/:id") { _, context in
            let id = try context.parameters.require("id", as: Int.self)
            guard let book = await state.books.first(where: { $0.id == id }) else {
                return try json(ShelfError(reason: "no book with id \(id)"), status: .notFound)
            }
            return try json(book)
        }
        router.get("/books") { request, _ in
            let author = request.uri.queryParameters.get("author")
            let limit = request.uri.queryParameters.get("limit", as: Int.self) ?? .max
            let books = await state.books.filter { author == nil || $0.author == author }
            return try json(Array(books.prefix(limit)))
        }
        router.post("/books") { request, context in
            let book = try await request.decode(as: NewBook.self, context: context)
            return try json(await state.add(book), status: .created)
        }
        router.delete("/books/:id") { _, _ in Response(status: .noContent) }
        router.get("/v1/notifications/stream") { _, _ in
            let events = (1...3).map { "event: notice\nid: \($0)\ndata: {\"title\":\"notice \($0)\"}\n\n" }.joined()
            return Response(status: .ok, headers: [.contentType: "text/event-stream"], body: .init(byteBuffer: ByteBuffer(string: events)))
        }
        router.get("/issues") { request, _ in
            let cursor = request.uri.queryParameters.get("cursor")
            let page = IssuePage(
                issues: cursor == nil ? [TrackedIssue(title: "first"), TrackedIssue(title: "second")] : [TrackedIssue(title: "third")],
                nextCursor: cursor == nil ? "2" : nil
            )
            return try json(page)
        }
        router.post("/uploads") { request, _ in
            let body = try await request.body.collect(upTo: 16 << 20)
            return try json(Receipt(id: body.readableBytes))
        }
        router.get("/exports/:id") { _, _ in
            Response(status: .ok, headers: [.contentType: "text/csv"], body: .init(byteBuffer: ByteBuffer(string: "id,title\n1,SICP\n")))
        }
        // Busy the first time each key is asked for, then fine.
        router.get("/flaky/:key") { _, context in
            let key = try context.parameters.require("key")
            if await state.count(key) == 1 {
                return Response(status: .serviceUnavailable, headers: [.retryAfter: "0"])
            }
            return try json(Book(id: 1, title: "Structure and Interpretation of Computer Programs", author: "Abelson"))
        }
        router.get("/always-busy") { _, _ in Response(status: .serviceUnavailable) }
        // The shelf's catalogue, reusable for a minute and revalidated by its tag; each
        // arrival counted under "catalogue".
        router.get("/catalogue") { request, _ in
            _ = await state.count("catalogue")
            if request.headers[.ifNoneMatch] == "\"shelf-3\"" {
                return Response(status: .notModified, headers: [.eTag: "\"shelf-3\"", .cacheControl: "max-age=60"])
            }
            var response = try json(await state.books)
            response.headers[.cacheControl] = "max-age=60"
            response.headers[.eTag] = "\"shelf-3\""
            return response
        }
        router.get("/catalogue/arrivals") { _, _ in try json(["count": await state.seen["catalogue", default: 0]]) }

        let (ports, continuation) = AsyncStream<Int>.makeStream()
        var logger = Logger(label: "documentation-server")
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
        throw DocServerDidNotStart()
    }
}

struct DocServerDidNotStart: Error {}
