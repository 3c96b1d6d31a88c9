import Courier
import CourierTestSupport
import AsyncHTTPClient
import CourierAsyncHTTPClient
import NIOCore
import Foundation
import Testing

@API
@Timeouts(idle: .seconds(20))
protocol Patient {
    @Timeouts(idle: .seconds(1))
    @GET("/stall-head")
    func stalled() async throws -> Data

    @GET("/stall-head")
    func stalledWithProtocolBounds() async throws -> Data
}

struct StalledEndpoint: Endpoint {
    typealias Response = Data
    var timeouts: Timeouts { Timeouts(idle: .seconds(1)) }
    func makeRequest() -> RequestBuilder { RequestBuilder(method: .get, path: "/stall-head") }
}

struct PlainStalledEndpoint: Endpoint {
    typealias Response = Data
    func makeRequest() -> RequestBuilder { RequestBuilder(method: .get, path: "/stall-head") }
}

/// The provider's timeouts, and each front-end's way to override them, on both transports.
@Suite("Timeouts: a provider-wide policy every front-end inherits and overrides", .timeLimit(.minutes(2)))
struct TimeoutPolicyTests {
    func provider(_ transport: TransportKind) async throws -> Provider {
        // Generous bounds on the provider, so that only an override can end the call quickly.
        var provider = try await transport.faultProvider(idle: .seconds(60))
        provider.timeouts.total = .seconds(60)
        return provider
    }

    /// Runs each call against a stalled head and expects a timeout well before the provider's
    /// 60 s. The bound leaves room for a machine that runs the override's 1 s or 800 ms many
    /// times slower (a sanitizer, a parallel suite on two cores): only the override can end
    /// the call in a third of the provider's bound.
    func expectTimeouts(_ calls: [(String, @Sendable () async throws -> Void)]) async {
        for (name, call) in calls {
            let outcome = await fault(within: .seconds(30)) { try await call() }
            #expect(outcome.error?.kind == .timeout, "\(name): \(String(describing: outcome.error))")
            #expect(outcome.elapsed < .seconds(20), "\(name): \(outcome.elapsed)")
        }
    }

    @Test("The defaults: 10 s to connect, 30 s without a byte, no total bound")
    func defaults() {
        let provider = Provider(baseURL: "http://127.0.0.1:1")
        #expect(provider.timeouts == Timeouts(connect: .seconds(10), idle: .seconds(30), total: nil))
        #expect(Timeouts.standard == provider.timeouts)
    }

    @Test("An idle bound set on an @API function, an Endpoint or a fluent request ends a stalled call", arguments: TransportKind.allCases)
    func idleOverrides(transport: TransportKind) async throws {
        let provider = try await provider(transport)
        let api = PatientAPI(provider: provider)
        let calls: [(String, @Sendable () async throws -> Void)] = [
            ("@API", { _ = try await api.stalled() }),
            ("Endpoint", { _ = try await provider.send(StalledEndpoint()) }),
            ("fluent", { _ = try await provider.send(Request(.get, "/stall-head", receiving: .data).timeouts(Timeouts(idle: .seconds(1)))) }),
        ]
        await expectTimeouts(calls)
    }

    @Test("A provider's total bound applies to every front-end; a request's own replaces it", arguments: TransportKind.allCases)
    func providerTotal(transport: TransportKind) async throws {
        var configured = try await provider(transport)
        configured.timeouts.total = .milliseconds(800)
        let provider = configured
        let api = PatientAPI(provider: provider)
        let calls: [(String, @Sendable () async throws -> Void)] = [
            ("@API", { _ = try await api.stalledWithProtocolBounds() }),
            ("Endpoint", { _ = try await provider.send(PlainStalledEndpoint()) }),
            ("fluent", { _ = try await provider.send(Request(.get, "/stall-head", receiving: .data)) }),
        ]
        await expectTimeouts(calls)
        // A request's total replaces the provider's 800 ms: the trickle of 1.5 s completes under
        // its own 30 s, however slowly the machine runs it.
        let data = try await provider.send(Request(.get, "/trickle?n=15", receiving: .data).timeout(.seconds(30)))
        #expect(data.count == 15)
    }

    @Test("The connect and idle bounds reach AsyncHTTPClient's process-wide client, one client per pair of bounds; a client of one's own keeps its configuration")
    func connectBound() async throws {
        let bounded = HTTPClientTransport.shared.bounded(connect: .milliseconds(500), read: .seconds(7))
        #expect(bounded.processWideTimeout?.connect == .milliseconds(500))
        #expect(bounded.processWideTimeout?.read == .seconds(7))
        #expect(HTTPClientTransport.shared.bounded(connect: .milliseconds(500), read: .seconds(7)).client === bounded.client)
        #expect(HTTPClientTransport.shared.bounded(connect: .seconds(10), read: .seconds(30)).client === HTTPClientTransport.shared.client)
        let own = HTTPClientTransport(client: TransportKind.client)
        #expect(own.bounded(connect: .milliseconds(500), read: nil).client === TransportKind.client)
    }
}
