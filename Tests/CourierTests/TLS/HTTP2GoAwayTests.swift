import AsyncHTTPClient
import Courier
import CourierAsyncHTTPClient
import CourierTestSupport
import Foundation
import Testing

@Suite("HTTP/2: a server's GOAWAY mid-flight", .timeLimit(.minutes(1)))
struct HTTP2GoAwayTests {
    /// Runs `body` with a provider for `server` on a client of its own, so that no connection of
    /// another test is in its pool.
    func withProvider(_ server: GoAwayServer, retryPolicy: RetryPolicy, _ body: (Provider) async throws -> Void) async throws {
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: .courierDefault)
        var provider = try Provider(baseURL: "https://127.0.0.1:\(server.port)", trust: testTrust, transport: HTTPClientTransport(client: client))
        provider.retryPolicy = retryPolicy
        do {
            try await body(provider)
        } catch {
            try await client.shutdown()
            await server.stop()
            throw error
        }
        try await client.shutdown()
        await server.stop()
    }

    func text(_ provider: Provider, _ method: HTTPRequest.Method = .get) async throws -> String {
        var builder = RequestBuilder(method: method, path: "/anything")
        if method == .post { builder.setBody(["order": 1]) }
        return try await provider.send(Request(builder, receiving: .text))
    }

    @Test("A GOAWAY that still processes the call in flight: it completes, and the next call opens a new connection")
    func graceful() async throws {
        let server = try await GoAwayServer.start(.graceful)
        try await withProvider(server, retryPolicy: .disabled) { (provider: Provider) async throws in
            #expect(try await text(provider) == "connection 0, stream 1")
            #expect(try await text(provider) == "connection 1, stream 1")
        }
        #expect(server.seen == GoAwayServer.Seen(connections: 2, requests: 2, answered: 2))
    }

    @Test("A GOAWAY that processed nothing: a GET the retry policy allows is sent again on a new connection, once")
    func refusedRetried() async throws {
        let server = try await GoAwayServer.start(.refusing)
        try await withProvider(server, retryPolicy: .standard) { (provider: Provider) async throws in
            #expect(try await text(provider) == "connection 1, stream 1")
        }
        #expect(server.seen == GoAwayServer.Seen(connections: 2, requests: 2, answered: 1))
    }

    @Test("A GOAWAY that processed nothing fails a call the retry policy does not send again, as a transport failure", arguments: [HTTPRequest.Method.get, .post])
    func refusedNotRetried(method: HTTPRequest.Method) async throws {
        let server = try await GoAwayServer.start(.refusing)
        try await withProvider(server, retryPolicy: method == .get ? .disabled : .standard) { (provider: Provider) async throws in
            let error = await #expect(throws: CourierError.self) { try await text(provider, method) }
            #expect(error?.kind == .transport, "\(String(describing: error))")
            #expect((error?.attempts.count ?? 0) <= 1)
        }
        #expect(server.seen == GoAwayServer.Seen(connections: 1, requests: 1, answered: 0))
    }
}
