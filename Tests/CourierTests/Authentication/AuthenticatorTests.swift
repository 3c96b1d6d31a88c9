@testable import Courier
import CourierTestSupport
import Foundation
import HTTPTypes
import Testing

@API
protocol Guarded {
    @GET("/script/:name")
    func fetch(name: String) async throws -> String
}

struct GuardedEndpoint: Endpoint {
    typealias Response = String
    var name: String
    func makeRequest() -> RequestBuilder { RequestBuilder(method: .get, path: "/script/\(name)") }
}

@Endpoint(.get, "/script/:name")
struct GuardedMacroEndpoint {
    typealias Response = String
    @PathParameter var name: String
}

/// A token with a lifetime, as an OAuth client keeps it.
struct Token: Sendable, Equatable {
    var value: String
    var expired = false
}

/// Counts what the refresh closure does.
final class RefreshLog: Sendable {
    let count = Locked(0)
    var refreshes: Int { count.withLock { $0 } }
}

/// A script that accepts only `Bearer <token>` and answers `401` to anything else.
func guardedScript(_ name: String, accepting token: String) {
    FaultServer.script(name) { arrival in
        arrival.header("Authorization") == "Bearer \(token)" ? .answer(status: 200, body: "secret") : .answer(status: 401, headers: [("WWW-Authenticate", "Bearer")])
    }
}

@Suite("Authentication that refreshes: once for everyone, never in a loop, never to another origin", .serialized, .timeLimit(.minutes(3)))
struct AuthenticatorTests {
    func authenticator(
        _ log: RefreshLog,
        start: Token? = Token(value: "stale"),
        delay: Duration = .milliseconds(200),
        refresh: @escaping @Sendable (Token?) async throws -> Token = { _ in Token(value: "fresh") }
    ) -> Authenticator<Token> {
        Authenticator<Token>(
            credential: start,
            apply: { token, request in request.headers[.authorization] = "Bearer \(token.value)" },
            refresh: { old in
                log.count.withLock { $0 += 1 }
                try await Task.sleep(for: delay)
                return try await refresh(old)
            },
            requiresRefresh: { $0.expired }
        )
    }

    /// A provider whose authenticator refreshes by POSTing to the script `issuer` through the
    /// same provider, and takes the body of the answer as the new token.
    func selfRefreshing(_ transport: TransportKind, issuer: String) async throws -> (Provider, Authenticator<Token>) {
        let holder = Locked<Provider?>(nil)
        let tokens = Authenticator<Token>(
            credential: Token(value: "stale"),
            apply: { token, request in request.headers[.authorization] = "Bearer \(token.value)" },
            refresh: { _ in
                guard let provider = holder.withLock({ $0 }) else { throw CancellationError() }
                return Token(value: try await provider.send(Request(.post, "/script/\(issuer)", receiving: .text)))
            }
        )
        let provider = try await transport.faultProvider(idle: .seconds(10)).authenticated(with: tokens)
        holder.withLock { $0 = provider }
        return (provider, tokens)
    }

    @Test("50 requests refused at once: one refresh, and all 50 succeed with its credential", arguments: TransportKind.allCases)
    func singleFlight(transport: TransportKind) async throws {
        let name = scriptName("auth-50", transport)
        guardedScript(name, accepting: "fresh")
        let log = RefreshLog()
        let provider = try await transport.faultProvider(idle: .seconds(10)).authenticated(with: authenticator(log))
        let texts = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<50 {
                group.addTask { try await provider.send(Request(.get, "/script/\(name)", receiving: .text)) }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(texts.count == 50 && texts.allSatisfy { $0 == "secret" })
        #expect(log.refreshes == 1)
        let arrivals = FaultServer.arrivals(ofScript: name)
        #expect(arrivals.filter { $0.header("Authorization") == "Bearer fresh" }.count == 50)
        // The first request went with the stale credential; none went with it after the refresh.
        #expect(arrivals.first?.header("Authorization") == "Bearer stale")
        #expect(arrivals.count == 50 + arrivals.filter { $0.header("Authorization") == "Bearer stale" }.count)
    }

    @Test("A request refused with the old credential after the refresh ended uses the new one without a second refresh", arguments: TransportKind.allCases)
    func stragglerAfterRefresh(transport: TransportKind) async throws {
        let name = scriptName("auth-straggler", transport)
        // The straggler's 401 comes back 600 ms late, after the refresh (100 ms) has ended.
        FaultServer.script(name) { arrival in
            if arrival.header("Authorization") == "Bearer fresh" { return .answer(status: 200, body: "secret") }
            let refused = ScriptStep.answer(status: 401)
            return arrival.header("X-Slow") == "1" ? .after(.milliseconds(600), refused) : refused
        }
        let log = RefreshLog()
        let provider = try await transport.faultProvider(idle: .seconds(10)).authenticated(with: authenticator(log, delay: .milliseconds(100)))
        async let slow = provider.send(Request(.get, "/script/\(name)", receiving: .text).header(try #require(HTTPField.Name("X-Slow")), "1"))
        // The straggler has gone with the stale credential before the other request starts.
        #expect(await eventually(within: .seconds(30)) { FaultServer.arrivals(ofScript: name).count == 1 }, "the straggler never arrived")
        let fast = try await provider.send(Request(.get, "/script/\(name)", receiving: .text))
        #expect(fast == "secret")
        #expect(try await slow == "secret")
        #expect(log.refreshes == 1)
        #expect(FaultServer.arrivals(ofScript: name).map { $0.header("Authorization") }.sorted { ($0 ?? "") < ($1 ?? "") }
            == ["Bearer fresh", "Bearer fresh", "Bearer stale", "Bearer stale"])
    }

    @Test("A refresh whose own request fails fails the waiting request as .authentication, the token endpoint's error inside", arguments: TransportKind.allCases)
    func refreshRequestFails(transport: TransportKind) async throws {
        let name = scriptName("auth-token-400", transport)
        guardedScript(name, accepting: "fresh")
        let issuer = scriptName("auth-token-endpoint", transport)
        FaultServer.script(issuer, [.answer(status: 400, body: "invalid_grant")])
        let (provider, _) = try await selfRefreshing(transport, issuer: issuer)
        let error = await #expect(throws: CourierError.self) {
            try await provider.send(Request(.get, "/script/\(name)", receiving: .text))
        }
        #expect(error?.kind == .authentication)
        #expect((error?.underlyingError as? CourierError)?.response?.statusCode == 400)
        #expect(error?.request?.path == "/script/\(name)")
    }

    @Test("A request waiting for a refresh that hangs stops waiting when it is cancelled", arguments: TransportKind.allCases)
    func cancelWhileRefreshing(transport: TransportKind) async throws {
        let name = scriptName("auth-hang", transport)
        guardedScript(name, accepting: "fresh")
        let log = RefreshLog()
        let provider = try await transport.faultProvider(idle: .seconds(10)).authenticated(with: authenticator(log, delay: .seconds(60)))
        let task = Task { try await provider.send(Request(.get, "/script/\(name)", receiving: .text)) }
        // Cancel once the 401 has come back and the refresh has started, however long that takes.
        #expect(await eventually(within: .seconds(30)) { log.refreshes == 1 }, "the refresh never started")
        let cancelled = ContinuousClock.now
        task.cancel()
        let result = await task.result
        #expect((result.failure as? CourierError)?.kind == .cancelled)
        // The refresh hangs for 60 s: the request stops waiting at the cancel, not at its end.
        #expect(ContinuousClock.now - cancelled < .seconds(5))
        #expect(log.refreshes == 1)
    }

    @Test("A streamed response refused with a 401 is refreshed and sent again like a buffered one", arguments: TransportKind.allCases)
    func streamedRefresh(transport: TransportKind) async throws {
        let name = scriptName("auth-stream", transport)
        guardedScript(name, accepting: "fresh")
        let log = RefreshLog()
        let provider = try await transport.faultProvider(idle: .seconds(10)).authenticated(with: authenticator(log, delay: .zero))
        let response = try await provider.send(Request(.get, "/script/\(name)", receiving: .stream))
        #expect(String(decoding: try await response.collect(upTo: 1024), as: UTF8.self) == "secret")
        #expect(log.refreshes == 1)
        #expect(FaultServer.arrivals(ofScript: name).count == 2)
    }

    @Test("A refresh that fails fails all 50 waiting requests once, with the refresh's error", arguments: TransportKind.allCases)
    func failingRefresh(transport: TransportKind) async throws {
        struct RefreshRefused: Error {}
        let name = scriptName("auth-fail", transport)
        guardedScript(name, accepting: "fresh")
        let log = RefreshLog()
        let provider = try await transport.faultProvider(idle: .seconds(10))
            .authenticated(with: authenticator(log) { _ in throw RefreshRefused() })
        let errors = await withTaskGroup(of: CourierError?.self) { group in
            for _ in 0..<50 {
                group.addTask {
                    do {
                        _ = try await provider.send(Request(.get, "/script/\(name)", receiving: .text))
                        return nil
                    } catch {
                        return error as? CourierError
                    }
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(errors.count == 50)
        #expect(errors.allSatisfy { $0?.kind == .authentication && $0?.underlyingError is RefreshRefused })
        #expect(log.refreshes == 1)
        // Requests that start while the refresh is under way wait for it instead of sending the
        // credential it replaces: at most 50 arrive, each once.
        #expect((1...50).contains(FaultServer.arrivals(ofScript: name).count))
    }

    @Test("Refused again after a refresh: the 401 is returned, no second refresh", arguments: TransportKind.allCases)
    func noLoop(transport: TransportKind) async throws {
        let name = scriptName("auth-loop", transport)
        guardedScript(name, accepting: "never")
        let log = RefreshLog()
        let provider = try await transport.faultProvider(idle: .seconds(10)).authenticated(with: authenticator(log, delay: .zero))
        let error = await #expect(throws: CourierError.self) {
            try await provider.send(Request(.get, "/script/\(name)", receiving: .text))
        }
        #expect(error?.kind == .status)
        #expect(error?.response?.statusCode == 401)
        #expect(error?.attempts.map { $0.status?.code } == [401, 401])
        #expect(log.refreshes == 1)
        #expect(FaultServer.arrivals(ofScript: name).map { $0.header("Authorization") } == ["Bearer stale", "Bearer fresh"])
    }

    @Test("A credential that knows it expired, or none at all, is refreshed before it is used", arguments: TransportKind.allCases)
    func proactive(transport: TransportKind) async throws {
        let name = scriptName("auth-expired", transport)
        guardedScript(name, accepting: "fresh")
        for start in [Token(value: "old", expired: true), nil] {
            let log = RefreshLog()
            let provider = try await transport.faultProvider(idle: .seconds(10)).authenticated(with: authenticator(log, start: start, delay: .zero))
            #expect(try await provider.send(Request(.get, "/script/\(name)", receiving: .text)) == "secret")
            #expect(log.refreshes == 1)
        }
        #expect(FaultServer.arrivals(ofScript: name).map { $0.header("Authorization") } == ["Bearer fresh", "Bearer fresh"])
    }

    @Test("Every front-end is refreshed the same way: @API, Endpoint, @Endpoint, fluent", arguments: TransportKind.allCases)
    func frontEnds(transport: TransportKind) async throws {
        let name = scriptName("auth-front-ends", transport)
        guardedScript(name, accepting: "fresh")
        let log = RefreshLog()
        let provider = try await transport.faultProvider(idle: .seconds(10)).authenticated(with: authenticator(log, delay: .zero))
        #expect(try await GuardedAPI(provider: provider).fetch(name: name) == "secret")
        #expect(try await provider.send(GuardedEndpoint(name: name)) == "secret")
        #expect(try await provider.send(GuardedMacroEndpoint(name: name)) == "secret")
        #expect(try await provider.send(Request(.get, "/script/\(name)", receiving: .text)) == "secret")
        #expect(log.refreshes == 1)
        #expect(FaultServer.arrivals(ofScript: name).map { $0.header("Authorization") } == ["Bearer stale"] + Array(repeating: "Bearer fresh", count: 4))
    }

    @Test("A failure of the user's own kind — a 403 saying the token expired — is refreshed; a 401 then is not this authenticator's", arguments: TransportKind.allCases)
    func customFailure(transport: TransportKind) async throws {
        let expired = try #require(HTTPField.Name("X-Token-Expired"))
        let name = scriptName("auth-custom", transport)
        FaultServer.script(name) { arrival in
            arrival.header("Authorization") == "Bearer fresh" ? .answer(status: 200, body: "secret") : .answer(status: 403, headers: [("X-Token-Expired", "true")])
        }
        let log = RefreshLog()
        let tokens = Authenticator<Token>(
            credential: Token(value: "stale"),
            apply: { token, request in request.headers[.authorization] = "Bearer \(token.value)" },
            refresh: { _ in
                log.count.withLock { $0 += 1 }
                return Token(value: "fresh")
            },
            isAuthenticationFailure: { $0.status.code == 403 && $0.headerFields[expired] == "true" }
        )
        let provider = try await transport.faultProvider(idle: .seconds(10)).authenticated(with: tokens)
        #expect(try await provider.send(Request(.get, "/script/\(name)", receiving: .text)) == "secret")
        #expect(log.refreshes == 1)
        #expect(FaultServer.arrivals(ofScript: name).map { $0.header("Authorization") } == ["Bearer stale", "Bearer fresh"])

        let other = scriptName("auth-custom-401", transport)
        FaultServer.script(other, [.answer(status: 401, headers: [("WWW-Authenticate", "Bearer")])])
        let error = await #expect(throws: CourierError.self) {
            try await provider.send(Request(.get, "/script/\(other)", receiving: .text))
        }
        #expect(error?.kind == .status)
        #expect(error?.response?.statusCode == 401)
        #expect(log.refreshes == 1)
        #expect(FaultServer.arrivals(ofScript: other).count == 1)
    }

    @Test("The credential never goes to another origin: not to an absolute URL elsewhere, not through a redirect", arguments: TransportKind.allCases)
    func otherOrigins(transport: TransportKind) async throws {
        let port = try await FaultServer.port()
        let landing = scriptName("auth-landing", transport)
        FaultServer.script(landing, [.answer(status: 200, body: "landed")])
        let jump = scriptName("auth-jump", transport)
        // `localhost` is another origin than `127.0.0.1`, though the same server.
        FaultServer.script(jump, [.answer(status: 302, headers: [("Location", "http://localhost:\(port)/script/\(landing)")])])
        let log = RefreshLog()
        let keys = Authenticator<String>(
            credential: "k-123",
            apply: { key, request in request.headers[HTTPField.Name("X-API-Key")!] = key },
            refresh: { _ in log.count.withLock { $0 += 1 }; return "k-456" }
        )
        let provider = try await transport.faultProvider(idle: .seconds(10)).authenticated(with: keys)
        #expect(try await provider.send(Request(.get, "/script/\(jump)", receiving: .text)) == "landed")
        var elsewhere = RequestBuilder(method: .get, path: "/")
        elsewhere.absoluteURL = URL(string: "http://localhost:\(port)/script/\(landing)")
        #expect(try await provider.send(Request(elsewhere, receiving: .text)) == "landed")
        #expect(FaultServer.arrivals(ofScript: jump).map { $0.header("X-API-Key") } == ["k-123"])
        #expect(FaultServer.arrivals(ofScript: landing).map { $0.header("X-API-Key") } == [nil, nil])
        #expect(log.refreshes == 0)
    }

    @Test("A refresh that sends its own request through the same provider goes without the credential and cannot wait for itself", arguments: TransportKind.allCases)
    func refreshThroughSameProvider(transport: TransportKind) async throws {
        let name = scriptName("auth-self", transport)
        guardedScript(name, accepting: "issued")
        let issuer = scriptName("auth-issuer", transport)
        FaultServer.script(issuer) { arrival in
            arrival.header("Authorization") == nil ? .answer(status: 200, body: "issued") : .answer(status: 401)
        }
        let (provider, tokens) = try await selfRefreshing(transport, issuer: issuer)
        #expect(try await provider.send(Request(.get, "/script/\(name)", receiving: .text)) == "secret")
        #expect(FaultServer.arrivals(ofScript: issuer).count == 1)
        #expect(tokens.credential == Token(value: "issued"))
    }
}
