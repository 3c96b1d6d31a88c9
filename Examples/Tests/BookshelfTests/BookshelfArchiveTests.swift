import Bookshelf
import Courier
import CourierTesting
import Foundation
import Testing

/// The demo's session against the bookshelf — a path value, a query, a JSON and a form body, a
/// refusal with its error body, a stream, a retried 503 — answered from the archive recorded from
/// the demo's server, with no server running. `COURIER_ARCHIVE_MODE=record swift test
/// --package-path Examples` records the archive anew against the server.
@Suite("The demo's session, replayed from its archive", .timeLimit(.minutes(1)))
struct BookshelfArchiveTests {
    static let archive = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Archives/bookshelf.har")

    @Test("Every call of the session is answered from the archive, the stream at its recorded pace")
    func session() async throws {
        let recording = ProcessInfo.processInfo.environment["COURIER_ARCHIVE_MODE"].map { $0 != "replay" } ?? false
        // Replaying, the base URL names no server at all: nothing can reach a network.
        let baseURL = recording ? "http://127.0.0.1:\(try await BookServer.start())" : "http://bookshelf.invalid"
        let archive = try ArchiveTransport(archive: Self.archive, mode: .replay)
        var provider = Provider(baseURL: baseURL, transport: archive)
        provider.retryPolicy = RetryPolicy(maxAttempts: 3, jitter: .none)
        let shelf = BookshelfAPI(provider: provider)

        #expect(try await shelf.book(id: 2) == Book(id: 2, title: "The Art of Computer Programming", author: "Knuth"))
        #expect(try await shelf.books(author: "Knuth", limit: nil).map(\.id) == [2, 3])
        let added = try await shelf.add(book: NewBook(title: "Gödel, Escher, Bach", author: "Hofstadter"))
        #expect(added == Book(id: 4, title: "Gödel, Escher, Bach", author: "Hofstadter"))
        let receipt = try await shelf.review(id: 4, rating: 5, comment: "strange loops & more")
        #expect([receipt.bookID, receipt.rating] == [4, 5] && receipt.comment == "strange loops & more")

        let refusal = await #expect(throws: CourierError.self) { try await shelf.book(id: 404) }
        #expect(refusal?.kind == .status)
        #expect(try refusal?.errorBody(ShelfError.self)?.reason == "no book with id 404")

        var arrivals: [ContinuousClock.Instant] = []
        var streamed: [Int] = []
        for try await book in try await provider.send(Request(.get, "/books/export", receiving: .jsonLines(Book.self))) {
            streamed.append(book.id)
            arrivals.append(.now)
        }
        #expect(streamed == [1, 2, 3, 4])
        // The server wrote a line every 50 ms; the replay keeps that pace.
        if let first = arrivals.first, let last = arrivals.last {
            #expect(last - first >= .milliseconds(100), "\(arrivals)")
        }

        // Busy the first time: the recorded 503, then the retry's 200.
        let availability = try await provider.send(Request(.get, "/books/2/availability", receiving: .json(Availability.self)))
        #expect(availability.bookID == 2 && availability.available)
        #expect(archive.unusedEntries.isEmpty)
    }
}
