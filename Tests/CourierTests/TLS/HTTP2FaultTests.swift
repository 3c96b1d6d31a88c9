import AsyncHTTPClient
import Courier
import CourierAsyncHTTPClient
import CourierTestSupport
import Foundation
import Testing

@Suite("HTTP/2: a server's GOAWAY, reset or close mid-flight", .timeLimit(.minutes(1)))
struct HTTP2FaultTests {
    /// Runs `body` with a provider for `server` on a client of its own, so that no connection of
    /// another test is in its pool.
    func withProvider(_ server: HTTP2FaultServer, retryPolicy: RetryPolicy, _ body: (Provider) async throws -> Void) async throws {
        do {
            try await withOwnClient { client in
                var provider = try Provider(baseURL: "https://127.0.0.1:\(server.port)", trust: testTrust, transport: HTTPClientTransport(client: client))
                provider.retryPolicy = retryPolicy
                try await body(provider)
            }
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }

    func text(_ provider: Provider, _ method: HTTPRequest.Method = .get) async throws -> String {
        var builder = RequestBuilder(method: method, path: "/anything")
        if method == .post { builder.setBody(["order": 1]) }
        return try await provider.send(Request(builder, receiving: .text))
    }

    @Test("A GOAWAY that still processes the call in flight: it completes, and the next call opens a new connection")
    func graceful() async throws {
        let server = try await HTTP2FaultServer.start(.graceful)
        try await withProvider(server, retryPolicy: .disabled) { (provider: Provider) async throws in
            #expect(try await text(provider) == "connection 0, stream 1")
            #expect(try await text(provider) == "connection 1, stream 1")
        }
        #expect(server.seen == HTTP2FaultServer.Seen(connections: 2, requests: 2, answered: 2))
    }

    @Test("A GOAWAY that processed nothing: a GET the retry policy allows is sent again on a new connection, once")
    func refusedRetried() async throws {
        let server = try await HTTP2FaultServer.start(.refusing)
        try await withProvider(server, retryPolicy: .standard) { (provider: Provider) async throws in
            #expect(try await text(provider) == "connection 1, stream 1")
        }
        #expect(server.seen == HTTP2FaultServer.Seen(connections: 2, requests: 2, answered: 1))
    }

    @Test("A GOAWAY that processed nothing fails a call the retry policy does not send again, as a transport failure", arguments: [HTTPRequest.Method.get, .post])
    func refusedNotRetried(method: HTTPRequest.Method) async throws {
        let server = try await HTTP2FaultServer.start(.refusing)
        try await withProvider(server, retryPolicy: method == .get ? .disabled : .standard) { (provider: Provider) async throws in
            let error = await #expect(throws: CourierError.self) { try await text(provider, method) }
            #expect(error?.kind == .transport, "\(String(describing: error))")
            #expect((error?.attempts.count ?? 0) <= 1)
        }
        #expect(server.seen == HTTP2FaultServer.Seen(connections: 1, requests: 1, answered: 0))
    }

    @Test(
        "Events written before a reset of the stream or a close of the connection all reach the caller, in order, then the error",
        arguments: [true, false]
    )
    func eventsBeforeUncleanEnd(reset: Bool) async throws {
        let padding = String(repeating: "x", count: 2_000)
        let events = (1...20).map { "id: \($0)\ndata: {\"n\":\($0),\"pad\":\"\(padding)\"}\n\n" }
        let server = try await HTTP2FaultServer.start(reset ? .streamThenReset(events) : .streamThenClose(events))
        // Courier's process-wide client, over TLS with h2 the only protocol the server offers.
        let provider = try await TransportKind.asyncHTTPClientHTTPS.faultProvider(idle: .seconds(5), port: server.port)
        for run in 0..<3 {
            let stream = try await provider.send(Request(.get, "/events", receiving: .events(Tick.self, reconnects: false)))
            let (seen, error) = await collectUntilFailure(stream)
            #expect(error?.kind == .transport, "run \(run): \(String(describing: error))")
            #expect(seen == (1...20).map { Tick(n: $0) }, "run \(run): \(seen.count) of 20 events")
        }
        await server.stop()
        #expect(server.seen.requests == 3)
    }

    @Test("Calls sent one after another to a server that closes each connection after its answer: no GET fails, no call arrives twice")
    func closingAfterEachAnswer() async throws {
        let server = try await HTTP2FaultServer.start(.closingAfterEachAnswer)
        let log = RecordedLog()
        var provider = try await TransportKind.asyncHTTPClientHTTPS.faultProvider(idle: .seconds(5), port: server.port)
        provider.retryPolicy = .disabled
        provider.observability.logger = log.logger()
        var failures: [HTTPRequest.Method: [String]] = [:]
        for method in [HTTPRequest.Method.get, .post] {
            for index in 0..<20 {
                var builder = RequestBuilder(method: method, path: "/\(method)/\(index)")
                if method == .post { builder.setBody(["order": index]) }
                do {
                    _ = try await provider.send(Request(builder, receiving: .text))
                } catch {
                    failures[method, default: []].append("\(index): \(error.message)")
                }
            }
        }
        await server.stop()
        // A call that meets the connection as it closes, before a stream was opened for it, was
        // never written: AsyncHTTPClient fails it as cancelled, and Courier sends it on a new
        // connection, a POST too. A POST whose stream was open may have been answered (the
        // server's close can cut the answer off): it fails, and is not sent again.
        #expect(failures[.get, default: []].isEmpty, "\(failures)")
        #expect(!failures.values.joined().contains { $0.contains("cancelled") }, "\(failures)")
        let posts = server.paths.filter { $0.hasPrefix("/POST/") }
        #expect(posts.count == Set(posts).count, "\(posts)")
        #expect(Set(server.paths).count == 40, "\(server.paths)")
        let resent = log.entries.filter { $0.metadata["courier.connection.resends"] != nil }.count
        print("HTTP/2 connection closed after each answer: GET failures \(failures[.get, default: []].count) of 20, POST failures \(failures[.post, default: []].count) of 20, \(resent) calls sent again on a new connection")
    }
}
