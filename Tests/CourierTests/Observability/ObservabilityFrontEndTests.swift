@testable import Courier
import CourierTestSupport
import CourierTesting
import Foundation
import HTTPTypes
import InMemoryTracing
import MetricsTestKit
import Testing
import Tracing

@API
protocol Searched {
    @GET("/script/:name")
    func search(name: String, token: String) async throws -> String
}

struct SearchEndpoint: Endpoint {
    typealias Response = String
    var name: String
    var token: String
    func makeRequest() -> RequestBuilder {
        var builder = RequestBuilder(method: .get, path: "/script/{name}")
        builder.addParameter("name", value: name)
        builder.addQuery("token", value: token)
        return builder
    }
}

@Endpoint(.get, "/script/:name")
struct SearchMacroEndpoint {
    typealias Response = String
    @PathParameter var name: String
    @QueryItem var token: String
}

/// What the observability suite checks through the fluent builder, checked through each
/// front-end: one request retried once, seen as spans, metrics and a log entry.
@Suite("Observability is the same whichever front-end made the request", .timeLimit(.minutes(3)))
struct ObservabilityFrontEndTests {
    @Test("@API, Endpoint, @Endpoint, fluent: a span with a child per attempt, the duration by template, one log entry, the query redacted", arguments: TransportKind.allCases)
    func everyFrontEnd(transport: TransportKind) async throws {
        let port = try await FaultServer.port()
        let calls: [(String, @Sendable (Provider, String) async throws -> String)] = [
            ("@API", { try await SearchedAPI(provider: $0).search(name: $1, token: "s3cr3t") }),
            ("Endpoint", { try await $0.send(SearchEndpoint(name: $1, token: "s3cr3t")) }),
            ("@Endpoint", { try await $0.send(SearchMacroEndpoint(name: $1, token: "s3cr3t")) }),
            ("fluent", { try await $0.send(Request(.get, "/script/:name", receiving: .text).parameter("name", $1).query("token", "s3cr3t")) }),
        ]
        for (label, call) in calls {
            var provider = try await transport.faultProvider(idle: .seconds(5))
            let tracer = TraceparentTracer()
            let metrics = TestMetrics()
            let log = RecordedLog()
            provider.observability = Observability(tracer: tracer, metricsFactory: metrics, logger: log.logger())
            provider.retryPolicy = RetryPolicy(maxAttempts: 3, jitter: .none)
            provider.clock = RecordingClock()
            let name = scriptName("observed", transport)
            FaultServer.script(name, [.answer(status: 503), .answer(status: 200, body: "found")])
            #expect(try await call(provider, name) == "found", "\(label)")

            // The request's span and one child per attempt, each attempt's context at the server.
            let spans = tracer.finishedSpans
            let parent = try #require(spans.first { $0.parentSpanID == nil }, "\(label)")
            #expect(parent.operationName == "GET /script/{name}", "\(label)")
            #expect(parent.text("url.full") == "http://127.0.0.1:\(port)/script/\(name)?token=REDACTED", "\(label)")
            #expect(parent.text("url.template") == "/script/{name}", "\(label)")
            #expect(parent.text("http.request.resend_count") == "1", "\(label)")
            let attempts = spans.filter { $0.parentSpanID == parent.spanID }
            #expect(attempts.count == 2, "\(label)")
            #expect(Set(attempts.compactMap { $0.text("http.response.status_code") }) == ["503", "200"], "\(label)")
            let sent = FaultServer.arrivals(ofScript: name).compactMap { $0.header("traceparent") }
            #expect(Set(sent) == Set(attempts.map(\.traceparent)) && sent.count == 2, "\(label)")

            // The duration of the whole request, once, by template; the retry counted.
            let duration = try metrics.expectTimer(
                "http.client.request.duration",
                [
                    ("http.request.method", "GET"), ("server.address", "127.0.0.1"), ("server.port", String(port)),
                    ("url.template", "/script/{name}"), ("http.response.status_code", "200"),
                ]
            )
            #expect(duration.values.count == 1, "\(label)")
            #expect(metrics.counterTotal(label: "courier.client.retries") == 1, "\(label)")

            // One entry, with the template and the attempts, and no secret.
            let entries = log.entries
            #expect(entries.count == 1, "\(label)")
            #expect(entries.first?.metadata["url.template"] == "/script/{name}", "\(label)")
            #expect(entries.first?.metadata["courier.attempts"] == "2", "\(label)")
            #expect(entries.allSatisfy { !($0.message + $0.metadata.values.joined()).contains("s3cr3t") }, "\(label)")
        }
    }
}
