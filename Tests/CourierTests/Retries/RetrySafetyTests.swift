@testable import Courier
import CourierTestSupport
import CourierTesting
import Foundation
import HTTPTypes
import Testing

@API
protocol Orders {
    @POST("/script/:name")
    func place(name: String, item: String) async throws -> String

    @GET("/script/:name")
    func status(name: String) async throws -> String
}

struct PlaceOrder: Endpoint {
    typealias Response = String
    var name: String
    func makeRequest() -> RequestBuilder {
        var builder = RequestBuilder(method: .post, path: "/script/\(name)")
        builder.setBody(.data(Data("order".utf8), contentType: "text/plain"))
        return builder
    }
}

/// The same endpoint with its policy as an instance property, which may depend on the value.
struct PlaceOrderRetrying: Endpoint {
    typealias Response = String
    var name: String
    var retryPolicy: RetryPolicy? {
        var policy = RetryPolicy(maxAttempts: 3, jitter: .none)
        policy.addsIdempotencyKey = true
        return policy
    }
    func makeRequest() -> RequestBuilder {
        var builder = RequestBuilder(method: .post, path: "/script/\(name)")
        builder.setBody(.data(Data("order".utf8), contentType: "text/plain"))
        return builder
    }
}

@Endpoint(.post, "/script/:name")
struct PlaceOrderMacro {
    typealias Response = String
    @PathParameter var name: String
    @BodyField var item: String
}

/// The rules that keep retries safe — what is never sent twice, what the budget allows, which
/// statuses are retried — checked through every front-end, on both transports.
@Suite("Retries are safe in every front-end: no second POST, the budget, the default statuses", .serialized, .timeLimit(.minutes(3)))
struct RetrySafetyTests {
    /// A provider on the fault server retrying up to three times, on a clock that records its waits.
    func provider(_ transport: TransportKind) async throws -> Provider {
        var provider = try await transport.faultProvider(idle: .seconds(5))
        provider.retryPolicy = RetryPolicy(maxAttempts: 3, jitter: .none)
        provider.clock = RecordingClock()
        return provider
    }

    /// One POST per front-end, each to its own script.
    func posts(_ provider: Provider) -> [(String, @Sendable (String) async throws -> String)] {
        let api = OrdersAPI(provider: provider)
        return [
            ("@API", { try await api.place(name: $0, item: "book") }),
            ("Endpoint", { try await provider.send(PlaceOrder(name: $0)) }),
            ("@Endpoint", { try await provider.send(PlaceOrderMacro(name: $0, item: "book")) }),
            ("fluent", { try await provider.send(Request(.post, "/script/\($0)", receiving: .text).body(.text("order"))) }),
        ]
    }

    @Test("A POST reset after it arrived is sent once, whichever front-end made it", arguments: TransportKind.allCases)
    func postOnceEverywhere(transport: TransportKind) async throws {
        let provider = try await provider(transport)
        for (label, call) in posts(provider) {
            let name = scriptName("post-once", transport)
            FaultServer.script(name, [.reset, .answer(status: 200, body: "created")])
            let error = await #expect(throws: CourierError.self, "\(label)") { try await call(name) }
            #expect(error?.kind == .transport, "\(label)")
            #expect(error?.retryStoppedBecause?.contains("not idempotent") == true, "\(label): \(String(describing: error?.retryStoppedBecause))")
            #expect(FaultServer.arrivals(ofScript: name).count == 1, "\(label)")
        }
    }

    @Test("A spent budget stops retries in every front-end: one arrival each, and the error says why", arguments: TransportKind.allCases)
    func budgetEverywhere(transport: TransportKind) async throws {
        var provider = try await provider(transport)
        // No floor and no share: not a single retry is allowed.
        provider.retryBudget = RetryBudget(ratio: 0, minimum: 0)
        let configured = provider
        let api = OrdersAPI(provider: configured)
        let gets: [(String, @Sendable (String) async throws -> String)] = [
            ("@API", { try await api.status(name: $0) }),
            ("Endpoint", { try await configured.send(GuardedEndpoint(name: $0)) }),
            ("@Endpoint", { try await configured.send(GuardedMacroEndpoint(name: $0)) }),
            ("fluent", { try await configured.send(Request(.get, "/script/\($0)", receiving: .text)) }),
        ]
        for (label, call) in gets {
            let name = scriptName("spent", transport)
            FaultServer.script(name, [.answer(status: 503), .answer(status: 200, body: "ok")])
            let error = await #expect(throws: CourierError.self, "\(label)") { try await call(name) }
            #expect(error?.response?.statusCode == 503, "\(label)")
            #expect(error?.retryStoppedBecause?.contains("budget is spent") == true, "\(label): \(String(describing: error?.retryStoppedBecause))")
            #expect(FaultServer.arrivals(ofScript: name).count == 1, "\(label)")
        }
    }

    @Test("408, 429, 502, 503 and 504 are retried by default; 400, 404, 500 and 501 are not", arguments: TransportKind.allCases)
    func defaultStatuses(transport: TransportKind) async throws {
        let provider = try await provider(transport)
        for status in [408, 429, 502, 503, 504, 400, 404, 500, 501] {
            let name = scriptName("status-\(status)", transport)
            FaultServer.script(name, [.answer(status: status), .answer(status: 200, body: "ok")])
            let request = Request(.get, "/script/\(name)", receiving: .text)
            if [408, 429, 502, 503, 504].contains(status) {
                #expect(try await provider.send(request) == "ok", "\(status)")
                #expect(FaultServer.arrivals(ofScript: name).count == 2, "\(status)")
            } else {
                let error = await #expect(throws: CourierError.self, "\(status)") { try await provider.send(request) }
                #expect(error?.response?.statusCode == status, "\(status)")
                #expect(FaultServer.arrivals(ofScript: name).count == 1, "\(status)")
            }
        }
    }

    @Test("addsIdempotencyKey gives a PATCH and a POST one key for all their attempts; an Endpoint's instance policy applies", arguments: TransportKind.allCases)
    func keyedPatchAndPost(transport: TransportKind) async throws {
        let provider = try await provider(transport)
        var policy = RetryPolicy(maxAttempts: 3, jitter: .none)
        policy.addsIdempotencyKey = true

        let patch = scriptName("patch-keyed", transport)
        FaultServer.script(patch, [.reset, .answer(status: 200, body: "patched")])
        let patched = try await provider.send(Request(.patch, "/script/\(patch)", receiving: .text).body(.text("change")).retry(policy))
        #expect(patched == "patched")
        let keys = FaultServer.arrivals(ofScript: patch).map { $0.header("Idempotency-Key") }
        try #require(keys.count == 2)
        #expect(keys[0] != nil && keys[0] == keys[1])

        // Without the option the same PATCH goes once.
        let unkeyed = scriptName("patch-unkeyed", transport)
        FaultServer.script(unkeyed, [.reset, .answer(status: 200)])
        await #expect(throws: CourierError.self) {
            try await provider.send(Request(.patch, "/script/\(unkeyed)", receiving: .text).body(.text("change")))
        }
        #expect(FaultServer.arrivals(ofScript: unkeyed).count == 1)

        // A GET is idempotent already: it is given no key.
        let get = scriptName("get-no-key", transport)
        FaultServer.script(get, [.answer(status: 503), .answer(status: 200, body: "ok")])
        #expect(try await provider.send(Request(.get, "/script/\(get)", receiving: .text).retry(policy)) == "ok")
        #expect(FaultServer.arrivals(ofScript: get).map { $0.header("Idempotency-Key") } == [nil, nil])

        let endpoint = scriptName("endpoint-instance-policy", transport)
        FaultServer.script(endpoint, [.reset, .answer(status: 200, body: "created")])
        #expect(try await provider.send(PlaceOrderRetrying(name: endpoint)) == "created")
        let arrivals = FaultServer.arrivals(ofScript: endpoint)
        try #require(arrivals.count == 2)
        #expect(arrivals[0].header("Idempotency-Key") != nil && arrivals[0].header("Idempotency-Key") == arrivals[1].header("Idempotency-Key"))
    }

    @Test("A 304 announcing a representation longer than the body limit is a 304, not a body too large", arguments: TransportKind.allCases)
    func notModifiedUnderLimit(transport: TransportKind) async throws {
        var provider = try await transport.faultProvider(idle: .seconds(5))
        provider.responseBodyLimit = 100
        let name = scriptName("not-modified", transport)
        FaultServer.script(name, [.answer(status: 304, headers: [("Content-Length", "1000"), ("ETag", "\"v1\"")])])
        let error = await #expect(throws: CourierError.self) {
            try await provider.send(Request(.get, "/script/\(name)", receiving: .data).header(.ifNoneMatch, "\"v1\""))
        }
        #expect(error?.kind == .status, "\(String(describing: error))")
        #expect(error?.response?.statusCode == 304)
    }
}
