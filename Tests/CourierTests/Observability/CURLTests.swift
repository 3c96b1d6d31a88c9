import Courier
import CourierTestSupport
import Foundation
import Logging
import Testing

@Suite("cURL rendering and logging", .timeLimit(.minutes(2)))
struct CURLTests {
    func prepared(_ fill: (inout RequestBuilder) -> Void, method: HTTPRequest.Method = .post) async throws -> RawRequest {
        var request = RequestBuilder(method: method, path: "/echo/items/:id")
        request.addParameter("id", value: "a b")
        fill(&request)
        // The request as the chain receives it, taken from an interceptor.
        let seen = Locked<RawRequest?>(nil)
        let provider = try await TestServer.provider("/api").intercept { req, next in
            seen.withLock { $0 = req }
            return try await next(req)
        }
        _ = try await provider.send(Courier.Request(request, receiving: .response))
        return try #require(seen.withLock { $0 })
    }

    @Test("A request becomes a curl command with every argument quoted; secrets redacted")
    func render() async throws {
        let request = try await prepared { request in
            request.addQuery("q", value: "it's")
            request.setAuthorization(.bearer("s3cret"))
            request.addHeader("Cookie", value: "session=abc")
            request.addHeader("X-Trace", value: "t-1")
            request.addField("name", value: "O'Brien")
        }
        let command = await request.cURL()
        let port = try await TestServer.port()
        #expect(command == """
            curl 'http://127.0.0.1:\(port)/api/echo/items/a%20b?q=it%27s' \\
              -H 'Authorization: <redacted>' \\
              -H 'Cookie: <redacted>' \\
              -H 'X-Trace: t-1' \\
              -H 'Content-Type: application/json' \\
              -H 'Content-Length: 18' \\
              --data-binary '{"name":"O'\\''Brien"}'
            """)
        #expect(!command.contains("s3cret"))
        #expect(!command.contains("session=abc"))
    }

    @Test("Secrets can be added and revealed; methods other than GET and POST are spelled out")
    func secretsAndMethods() async throws {
        let request = try await prepared({ request in
            request.addHeader("X-API-Key", value: "k-123")
            request.setAuthorization(.bearer("visible"))
        }, method: .delete)
        let command = await request.cURL(secrets: [HTTPField.Name("X-API-Key")!], revealing: [.authorization])
        #expect(command.hasPrefix("curl -X DELETE "))
        #expect(command.contains("'X-API-Key: <redacted>'"))
        #expect(command.contains("'Authorization: Bearer visible'"))
    }

    @Test("Binary bodies are quoted so that the command sends the same bytes")
    func binaryBody() async throws {
        let request = try await prepared { $0.setBody(.data(Data([0x00, 0x27, 0xFF, 0x41]), contentType: "application/octet-stream")) }
        let command = await request.cURL()
        #expect(command.hasSuffix(#"--data-binary $'\x00\'\xFFA'"#))
    }

    @Test("The logger logs failures only in onError mode, and every request in always mode")
    func logger() async throws {
        let sink = LogSink()
        let logger = Logger(label: "test") { _ in sink }
        let onError = try await TestServer.provider().intercept(CURLLogger(when: .onError, logger: logger, level: .info))
        _ = try await onError.send(Request(RequestBuilder(method: .get, path: "/users/1"), receiving: .json(TestUser.self)))
        #expect(sink.messages.isEmpty)
        _ = try? await onError.send(Request(RequestBuilder(method: .get, path: "/status/503"), receiving: .json(TestUser.self)))
        #expect(sink.messages.count == 1)
        #expect(sink.messages.first?.contains("/status/503") == true)

        let always = try await TestServer.provider().intercept(CURLLogger(when: .always, logger: logger, level: .info))
        var request = RequestBuilder(method: .get, path: "/users/2")
        request.setAuthorization(.bearer("never-logged"))
        _ = try await always.send(Request(request, receiving: .json(TestUser.self)))
        #expect(sink.messages.count == 2)
        #expect(sink.messages.allSatisfy { !$0.contains("never-logged") })
    }
}

/// A log handler that keeps messages for inspection.
struct LogSink: LogHandler {
    private let lines = Log()
    private let details = Log()
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    var messages: [String] { lines.entries }
    /// Each message's metadata, as `key=value` pairs in key order, joined by spaces.
    var metadataLines: [String] { details.entries }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        lines.append(event.message.description)
        details.append((event.metadata ?? [:]).sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " "))
    }
}
