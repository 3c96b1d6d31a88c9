import Courier
import CourierTesting
import Foundation
import HTTPTypes
import Testing

/// `ArchiveTransport` answering from HTTP Archives: one written by mitmproxy 11 while curl talked to
/// a server through it (`Archives/record.sh` recorded it; the server is `Archives/archive_server.py`),
/// and small ones written here.
@Suite("Replaying HTTP Archives", .timeLimit(.minutes(1)))
struct ReplayTransportTests {
    struct Book: Codable, Equatable, Sendable {
        var id: Int?
        var title: String
    }

    struct Counter: Codable, Equatable, Sendable {
        var count: Int
    }

    static let archives = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Archives")
    static let mitmproxy = archives.appendingPathComponent("mitmproxy-books.har")
    static let servedBy = HTTPField.Name("X-Served-By") ?? .server

    /// A provider answering from `transport`, at the origin the archive was recorded against.
    func provider(_ transport: ArchiveTransport) -> Provider {
        Provider(baseURL: "http://127.0.0.1:18741", transport: transport)
    }

    @Test("An archive written by mitmproxy replays every exchange, with its status, headers and bodies")
    func mitmproxyArchive() async throws {
        let replay = try ArchiveTransport(archive: Self.mitmproxy)
        let provider = provider(replay)
        #expect(replay.unusedEntries.count == 5)
        // The query in another order still matches.
        let books = try await provider.send(Request(.get, "/books", receiving: .json([Book].self)).query("limit", "2").query("sort", "title"))
        #expect(books == [Book(id: 1, title: "Dune"), Book(id: 2, title: "Emma")])
        // Repeated identical requests take their entries in the order recorded.
        #expect(try await provider.send(Request(.get, "/counter", receiving: .json(Counter.self))) == Counter(count: 1))
        #expect(try await provider.send(Request(.get, "/counter", receiving: .json(Counter.self))) == Counter(count: 2))
        let created = try await provider.send(Request(.post, "/books", receiving: .withResponse(.json(Book.self))).body(.json(Book(title: "Ulysses"))))
        #expect(created.0 == Book(id: 3, title: "Ulysses"))
        #expect(created.1.status.code == 201)
        #expect(created.1.headers[Self.servedBy] == "archive-server")
        // mitmproxy writes a binary body one character per byte: the bytes come back as sent.
        let cover = try await provider.send(Request(.get, "/cover.png", receiving: .data))
        #expect(cover == Data((0...255).map { UInt8($0) }))
        #expect(replay.unusedEntries.isEmpty)
    }

    @Test("A request no entry answers fails, naming the closest entry and what differs")
    func unmatched() async throws {
        let replay = try ArchiveTransport(archive: Self.mitmproxy)
        let provider = provider(replay)
        let wrongMethod = await #expect(throws: CourierError.self) { try await provider.send(Request(.delete, "/counter", receiving: .data)) }
        #expect(wrongMethod?.kind == .unmocked, "\(String(describing: wrongMethod))")
        #expect(wrongMethod?.message.contains("DELETE /counter") == true, "\(String(describing: wrongMethod))")
        #expect(wrongMethod?.message.contains("the closest is GET http://127.0.0.1:18741/counter, which differs in method GET") == true, "\(String(describing: wrongMethod))")
        let wrongQuery = await #expect(throws: CourierError.self) {
            try await provider.send(Request(.get, "/books", receiving: .data).query("sort", "author"))
        }
        #expect(wrongQuery?.message.contains("differs in query ?limit=2&sort=title") == true, "\(String(describing: wrongQuery))")
        // Once both recorded answers are used, a third identical request is not answered by a guess.
        _ = try await provider.send(Request(.get, "/counter", receiving: .data))
        _ = try await provider.send(Request(.get, "/counter", receiving: .data))
        let third = await #expect(throws: CourierError.self) { try await provider.send(Request(.get, "/counter", receiving: .data)) }
        #expect(third?.message.contains("every entry like it has been used") == true, "\(String(describing: third))")
        #expect(replay.unusedEntries == [
            "GET http://127.0.0.1:18741/books?sort=title&limit=2",
            "POST http://127.0.0.1:18741/books",
            "GET http://127.0.0.1:18741/cover.png",
        ])
    }

    @Test("With matchingBodies, a request is answered only by an entry with its body")
    func matchingBodies() async throws {
        let replay = try ArchiveTransport(archive: Self.mitmproxy, matchingBodies: true)
        let provider = provider(replay)
        let other = await #expect(throws: CourierError.self) {
            try await provider.send(Request(.post, "/books", receiving: .data).body(.json(Book(title: "Emma"))))
        }
        #expect(other?.message.contains("which differs in body") == true, "\(String(describing: other))")
        let created = try await provider.send(Request(.post, "/books", receiving: .json(Book.self)).body(.text(#"{"title":"Ulysses"}"#)))
        #expect(created == Book(id: 3, title: "Ulysses"))
    }

    @Test("A base64 body is decoded; the recorded framing and coding headers are replaced")
    func base64AndFraming() async throws {
        let bytes = Data([0x89, 0x50, 0x4E, 0x47, 0x00, 0xFF])
        let url = try Self.write("""
        {"log": {"version": "1.2", "creator": {"name": "a browser", "version": "1"}, "entries": [{
          "startedDateTime": "2026-11-25T10:00:00.000Z", "time": 12.5,
          "request": {"method": "GET", "url": "https://cdn.example/logo.png", "headers": []},
          "response": {"status": 200, "headers": [
              {"name": "Content-Encoding", "value": "gzip"}, {"name": "Content-Length", "value": "999"},
              {"name": "Content-Type", "value": "image/png"}],
            "content": {"size": 6, "mimeType": "image/png", "text": "\(bytes.base64EncodedString())", "encoding": "base64"},
            "_custom": "ignored"}
        }]}}
        """)
        let provider = Provider(baseURL: "https://cdn.example", transport: try ArchiveTransport(archive: url))
        let (data, response) = try await provider.send(Request(.get, "/logo.png", receiving: .withResponse(.data)))
        #expect(data == bytes)
        #expect(response.headers[.contentEncoding] == nil)
        #expect(response.headers[.contentLength] == "6")
        #expect(response.headers[.contentType] == "image/png")
    }

    @Test("A file that is not a HAR archive is an error naming the file")
    func unreadable() throws {
        let url = try Self.write(#"{"log": {"entries": "none"}}"#)
        let error = #expect(throws: HTTPArchiveError.self) { try ArchiveTransport(archive: url) }
        #expect(error?.description.contains("'\(url.path)' is not a readable HAR 1.2 archive") == true, "\(String(describing: error))")
    }

    /// An archive of one entry whose response has `status` and `content`, and whose request has
    /// `postData`.
    static func archive(status: String = "200", content: String = #"{"size": 2, "text": "ok"}"#, postData: String = "null") -> String {
        """
        {"log": {"version": "1.2", "creator": {"name": "a tool", "version": "1"}, "entries": [
          {"startedDateTime": "2026-11-25T10:00:00.000Z", "time": 1,
           "request": {"method": "GET", "url": "https://api.example/ok", "headers": []},
           "response": {"status": 200, "headers": [], "content": {"size": 2, "text": "ok"}}},
          {"startedDateTime": "2026-11-25T10:00:01.000Z", "time": 1,
           "request": {"method": "POST", "url": "https://api.example/bad", "headers": [], "postData": \(postData)},
           "response": {"status": \(status), "headers": [], "content": \(content)}}
        ]}}
        """
    }

    @Test(
        "A value a replay cannot use is an error when the archive is read, naming the file, the entry and the field",
        arguments: [
            (archive(status: "1000"), "response.status is 1000"),
            (archive(status: "-1"), "response.status is -1"),
            (archive(content: #"{"size": 2, "text": "%%%", "encoding": "base64"}"#), "response.content.text is not valid base64"),
            (archive(postData: #"{"text": "%%%", "_encoding": "base64"}"#), "request.postData.text is not valid base64"),
            (archive(content: #"{"size": 2, "text": "ok", "_chunks": [{"size": 3, "time": 1}, {"size": -1, "time": 2}]}"#), "response.content._chunks[1].size is -1"),
            (archive(content: #"{"size": 2, "text": "ok", "_chunks": [{"size": 2, "time": 1e300}]}"#), "response.content._chunks[0].time is 1e+300"),
            (archive(content: #"{"size": 2, "text": "ok", "_chunks": [{"size": 2, "time": -5}]}"#), "response.content._chunks[0].time is -5"),
        ]
    )
    func badValues(archive: String, field: String) throws {
        let url = try Self.write(archive)
        let error = #expect(throws: HTTPArchiveError.self) { try ArchiveTransport(archive: url) }
        let text = error?.description ?? ""
        #expect(text.contains("'\(url.path)'"), "\(text)")
        #expect(text.contains("entry 2 (POST https://api.example/bad)"), "\(text)")
        #expect(text.contains(field), "\(text)")
    }

    @Test("An entry a browser recorded without a response (status 0) is read, and replays as an error, not a crash")
    func statusZero() async throws {
        let url = try Self.write(Self.archive(status: "0"))
        let provider = Provider(baseURL: "https://api.example", transport: try ArchiveTransport(archive: url))
        #expect(try await provider.send(Request(.get, "/ok", receiving: .text)) == "ok")
        let error = await #expect(throws: CourierError.self) { try await provider.send(Request(.post, "/bad", receiving: .text)) }
        #expect(error?.message.contains("recorded no response (status 0)") == true, "\(String(describing: error))")
    }

    static func write(_ text: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("courier-\(UUID().uuidString).har")
        try Data(text.utf8).write(to: url)
        return url
    }
}
