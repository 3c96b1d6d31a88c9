import AsyncHTTPClient
@testable import Courier
import CourierAsyncHTTPClient
import CourierTestSupport
import Foundation
import HTTPTypes
import Logging
import Testing

/// A pooled connection the server closed while it was idle: the request that meets the close is
/// sent once more on a new connection when that is safe, whatever the retry policy says.
@Suite("A connection the server closed while idle", .serialized, .timeLimit(.minutes(3)))
struct StaleConnectionTests {
    /// Runs `body` with a fault-server provider whose AsyncHTTPClient connections are its own:
    /// the connections these tests have the server close stay out of the process-wide pool,
    /// where another suite's request could meet two of them in a row.
    func withOwnConnections(_ transport: TransportKind, _ body: (inout Provider) async throws -> Void) async throws {
        var provider = try await transport.faultProvider(idle: .seconds(5))
        guard transport != .urlSession else { return try await body(&provider) }
        try await withOwnClient { client in
            provider.transport = HTTPClientTransport(client: client)
            try await body(&provider)
        }
    }

    /// One GET per front-end, each to its own script.
    func gets(_ provider: Provider) -> [(String, @Sendable (String) async throws -> String)] {
        let api = OrdersAPI(provider: provider)
        return [
            ("@API", { try await api.status(name: $0) }),
            ("Endpoint", { try await provider.send(GuardedEndpoint(name: $0)) }),
            ("@Endpoint", { try await provider.send(GuardedMacroEndpoint(name: $0)) }),
            ("fluent", { try await provider.send(Request(.get, "/script/\($0)", receiving: .text)) }),
        ]
    }

    @Test(
        "A GET that meets the close is sent once more on a new connection, in every front-end, with retries off",
        arguments: TransportKind.withHTTPS
    )
    func getResent(transport: TransportKind) async throws {
        let log = RecordedLog()
        try await withOwnConnections(transport) { (provider: inout Provider) async throws in
            provider.retryPolicy = .disabled
            provider.observability.logger = log.logger()
            // A session of its own: its one connection is the one the second call reuses (libcurl
            // sends again only on a connection it reused, and a shared session may pick a new one).
            if transport == .urlSession { provider.transport = URLSessionHTTPTransport() }
            for (label, call) in gets(provider) {
                let name = scriptName("stale-get", transport)
                FaultServer.script(name, [.answer(status: 200, body: "first"), .close, .answer(status: 200, body: "again")])
                #expect(try await call(name) == "first", "\(label)")
                #expect(try await call(name) == "again", "\(label)")
                #expect(FaultServer.arrivals(ofScript: name).count == 3, "\(label)")
            }
            if transport != .urlSession {
                // libcurl sends such a request again by itself, unseen; Courier's own resend is logged.
                let resent = log.entries.filter { $0.metadata["courier.connection.resends"] == "1" }
                #expect(resent.count == 4, "\(log.entries.map(\.metadata))")
            }
        }
    }

    @Test("A POST that reached the server before the close is not sent again", arguments: TransportKind.withHTTPS)
    func stalePostNotResent(transport: TransportKind) async throws {
        try await withOwnConnections(transport) { (provider: inout Provider) async throws in
            let name = scriptName("stale-post", transport)
            FaultServer.script(name, [.answer(status: 200, body: "first"), .close, .answer(status: 200, body: "again")])
            #expect(try await provider.send(Request(.post, "/script/\(name)", receiving: .text).body(.text("order"))) == "first")
            let error = await #expect(throws: CourierError.self) {
                try await provider.send(Request(.post, "/script/\(name)", receiving: .text).body(.text("order")))
            }
            #expect(error?.kind == .transport)
            #expect(FaultServer.arrivals(ofScript: name).count == 2)
        }
    }

    @Test(
        "Calls sent as the server closes idle connections: no GET fails, and no request arrives twice",
        arguments: TransportKind.withHTTPS
    )
    func idleCloseRace(transport: TransportKind) async throws {
        try await withOwnConnections(transport) { (provider: inout Provider) async throws in
            provider.retryPolicy = .disabled
            var failures: [HTTPRequest.Method: [String]] = [:]
            var arrivedTwice = 0
            for method in [HTTPRequest.Method.get, .post] {
                let name = scriptName("idle-race", transport)
                FaultServer.script(name) { arrival in .closingWhenIdle(.milliseconds(20), .answer(status: 200, body: "\(arrival.target)")) }
                // The server closes 20 ms after each answer; each call goes out between 17 and 23 ms
                // after the last one came back, around the moment of the close.
                for index in 0..<40 {
                    try await Task.sleep(for: .microseconds(17_000 + index * 150))
                    var request = Request(method, "/script/\(name)?call=\(index)", receiving: .text)
                    if method == .post { request = request.body(.text("order \(index)")) }
                    do {
                        _ = try await provider.send(request)
                    } catch {
                        failures[method, default: []].append("\(index): \((error as? CourierError)?.message ?? "\(error)")")
                    }
                }
                // A GET may arrive twice (sending it again is safe); a POST never.
                if method == .post {
                    let targets = FaultServer.arrivals(ofScript: name).map(\.target)
                    arrivedTwice += targets.count - Set(targets).count
                }
            }
            #expect(failures[.get, default: []].isEmpty, "\(failures)")
            #expect(arrivedTwice == 0, "\(failures)")
            // A POST fails only where it may have reached the server: never for a write that failed.
            #expect(!failures[.post, default: []].contains { $0.contains("I/O on closed channel") }, "\(failures)")
            print("idle-close race on \(transport): GET failures \(failures[.get, default: []].count) of 40, POST failures \(failures[.post, default: []].count) of 40")
        }
    }
}
