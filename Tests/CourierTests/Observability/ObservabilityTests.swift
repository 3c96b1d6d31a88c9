import AsyncHTTPClient
@testable import Courier
import CourierAsyncHTTPClient
import CourierTestSupport
import CourierTesting
import CoreMetrics
import Foundation
import HTTPTypes
import InMemoryTracing
import Instrumentation
import Logging
import MetricsTestKit
import Testing
import Tracing

@API
protocol Scripted {
    @GET("/script/:name")
    func fetch(name: String) async throws -> String
}

/// An `Endpoint` written by hand, its path a template with a placeholder.
struct ScriptedEndpoint: Endpoint {
    typealias Response = String
    var name: String
    func makeRequest() -> RequestBuilder {
        var builder = RequestBuilder(method: .get, path: "/script/{name}")
        builder.addParameter("name", value: name)
        return builder
    }
}

@Endpoint(.get, "/script/:name")
struct ScriptedMacroEndpoint {
    typealias Response = String
    @PathParameter var name: String
}

/// The in-memory tracer, propagating its spans as W3C `traceparent` does: 32 and 16 hex digits.
struct TraceparentTracer: Tracer {
    typealias Span = InMemorySpan
    let base = InMemoryTracer(
        idGenerator: .init(
            nextTraceID: { (0..<2).map { _ in String(format: "%016llx", UInt64.random(in: 1...UInt64.max)) }.joined() },
            nextSpanID: { String(format: "%016llx", UInt64.random(in: 1...UInt64.max)) }
        )
    )

    var finishedSpans: [FinishedInMemorySpan] { base.finishedSpans }

    func startSpan<Instant: TracerInstant>(
        _ operationName: String,
        context: @autoclosure () -> ServiceContext,
        ofKind kind: SpanKind,
        at instant: @autoclosure () -> Instant,
        function: String,
        file fileID: String,
        line: UInt
    ) -> InMemorySpan {
        base.startSpan(operationName, context: context(), ofKind: kind, at: instant(), function: function, file: fileID, line: line)
    }

    func forceFlush() {}

    func inject<Carrier, Inject: Injector>(_ context: ServiceContext, into carrier: inout Carrier, using injector: Inject) where Inject.Carrier == Carrier {
        guard let span = context.inMemorySpanContext else { return }
        injector.inject("00-\(span.traceID)-\(span.spanID)-01", forKey: "traceparent", into: &carrier)
    }

    func extract<Carrier, Extract: Extractor>(_ carrier: Carrier, into context: inout ServiceContext, using extractor: Extract) where Extract.Carrier == Carrier {}
}

extension FinishedInMemorySpan {
    /// An attribute as text, whatever its type.
    func text(_ name: String) -> String? {
        switch attributes.get(name) {
        case .string(let value): value
        case .int64(let value): String(value)
        case .int32(let value): String(value)
        case .none: nil
        case .some(let other): "\(other)"
        }
    }

    /// The `traceparent` that propagates this span.
    var traceparent: String { "00-\(traceID)-\(spanID)-01" }
}

/// Spans, metrics and log entries of requests on both transports and in every front-end, on a
/// tracer, a metrics factory and a logger of the test's own, against the fault server, whose
/// arrivals show the propagated context.
@Suite("Observability: spans, metrics and logs in OpenTelemetry's conventions", .timeLimit(.minutes(3)))
struct ObservabilityTests {
    /// A provider on the fault server reporting to a tracer and a metrics factory of its own.
    func provider(_ transport: TransportKind) async throws -> (Provider, TraceparentTracer, TestMetrics) {
        var provider = try await transport.faultProvider(idle: .seconds(5))
        let tracer = TraceparentTracer()
        let metrics = TestMetrics()
        provider.observability = Observability(tracer: tracer, metricsFactory: metrics)
        return (provider, tracer, metrics)
    }

    @Test("One client span per request, named by method and template, with the conventions' attributes; its traceparent reaches the server: every front-end", arguments: TransportKind.allCases)
    func spanPerRequest(transport: TransportKind) async throws {
        let (provider, tracer, _) = try await provider(transport)
        let port = try await FaultServer.port()
        let api = ScriptedAPI(provider: provider)
        let calls: [(String, @Sendable (String) async throws -> String)] = [
            ("@API", { try await api.fetch(name: $0) }),
            ("Endpoint", { try await provider.send(ScriptedEndpoint(name: $0)) }),
            ("@Endpoint", { try await provider.send(ScriptedMacroEndpoint(name: $0)) }),
            ("fluent", { try await provider.send(Request(.get, "/script/:name", receiving: .text).parameter("name", $0)) }),
        ]
        for (label, call) in calls {
            let name = scriptName("span", transport)
            FaultServer.script(name, [.answer(status: 200, body: label)])
            #expect(try await call(name) == label)
            let spans = tracer.finishedSpans.filter { $0.text("url.full")?.hasSuffix(name) == true }
            try #require(spans.count == 1, "\(label): \(spans.map(\.operationName))")
            let span = spans[0]
            #expect(span.operationName == "GET /script/{name}", "\(label)")
            #expect(span.kind == .client)
            #expect(span.parentSpanID == nil)
            #expect(span.text("http.request.method") == "GET")
            #expect(span.text("server.address") == "127.0.0.1")
            #expect(span.text("server.port") == String(port))
            #expect(span.text("url.full") == "http://127.0.0.1:\(port)/script/\(name)")
            #expect(span.text("url.template") == "/script/{name}", "\(label)")
            #expect(span.text("http.response.status_code") == "200")
            #expect(span.text("error.type") == nil)
            #expect(span.text("http.request.resend_count") == nil)
            let arrivals = FaultServer.arrivals(ofScript: name)
            #expect(arrivals.count == 1)
            #expect(arrivals.first?.header("traceparent") == span.traceparent, "\(label)")
            #expect(arrivals.first.map { $0.headers.filter { $0.name.lowercased() == "traceparent" }.count } == 1)
        }
    }

    @Test("A retried request: the request's span, a child per attempt with its resend count and outcome, each attempt's traceparent at the server", arguments: TransportKind.allCases)
    func spansAcrossRetries(transport: TransportKind) async throws {
        var (provider, tracer, metrics) = try await provider(transport)
        provider.retryPolicy = RetryPolicy(maxAttempts: 3, jitter: .none)
        provider.clock = RecordingClock()
        let name = scriptName("retried", transport)
        FaultServer.script(name, [.answer(status: 503), .answer(status: 200, body: "done")])
        #expect(try await provider.send(Request(.get, "/script/:name", receiving: .text).parameter("name", name)) == "done")

        let spans = tracer.finishedSpans.filter { $0.text("url.full")?.hasSuffix(name) == true }
        try #require(spans.count == 3)
        let parent = try #require(spans.first { $0.parentSpanID == nil })
        let attempts = spans.filter { $0.parentSpanID == parent.spanID }.sorted { ($0.text("http.request.resend_count") ?? "0") < ($1.text("http.request.resend_count") ?? "0") }
        try #require(attempts.count == 2)
        #expect(attempts.allSatisfy { $0.traceID == parent.traceID && $0.operationName == "GET /script/{name}" && $0.kind == .client })
        #expect(attempts[0].text("http.request.resend_count") == nil)
        #expect(attempts[0].text("http.response.status_code") == "503")
        #expect(attempts[0].text("error.type") == "503")
        #expect(attempts[0].status?.code == .error)
        #expect(attempts[1].text("http.request.resend_count") == "1")
        #expect(attempts[1].text("http.response.status_code") == "200")
        #expect(parent.text("http.response.status_code") == "200")
        #expect(parent.text("http.request.resend_count") == "1")
        #expect(parent.status?.code != .error)
        // Each attempt went out under its own span.
        let arrivals = FaultServer.arrivals(ofScript: name)
        #expect(arrivals.map { $0.header("traceparent") } == attempts.map(\.traceparent))

        #expect(metrics.counterTotal(label: "courier.client.retries") == 1)
        let durations = metrics.timers(label: "http.client.request.duration")
        #expect(durations.count == 1)
        #expect(durations.first?.values.count == 1)
    }

    @Test("A refreshed credential: a child span per attempt, the refresh counted", arguments: TransportKind.allCases)
    func spansAcrossRefresh(transport: TransportKind) async throws {
        var (provider, tracer, metrics) = try await provider(transport)
        let name = scriptName("refresh", transport)
        FaultServer.script(name) { arrival in
            arrival.header("Authorization") == "Bearer fresh" ? .answer(status: 200, body: "in") : .answer(status: 401)
        }
        provider = provider.authenticated(
            with: Authenticator(
                credential: "stale",
                apply: { token, request in request.headers[.authorization] = "Bearer \(token)" },
                refresh: { _ in "fresh" }
            )
        )
        #expect(try await provider.send(Request(.get, "/script/:name", receiving: .text).parameter("name", name)) == "in")
        let spans = tracer.finishedSpans.filter { $0.text("url.full")?.hasSuffix(name) == true }
        let parent = try #require(spans.first { $0.parentSpanID == nil })
        let attempts = spans.filter { $0.parentSpanID == parent.spanID }
        #expect(attempts.map { $0.text("http.response.status_code") }.sorted { ($0 ?? "") < ($1 ?? "") } == ["200", "401"])
        #expect(metrics.counterTotal(label: "courier.client.refreshes") == 1)
        #expect(metrics.counterTotal(label: "courier.client.retries") == 0)
    }

    @Test("Metrics: the duration in seconds, in flight, body sizes, with method, status, template and server as dimensions", arguments: TransportKind.allCases)
    func metrics(transport: TransportKind) async throws {
        let (provider, _, metrics) = try await provider(transport)
        let port = try await FaultServer.port()
        let name = scriptName("metrics", transport)
        FaultServer.script(name, [.answer(status: 201, body: "created!"), .answer(status: 404, body: "gone")])
        let request = Request(.post, "/script/:name", receiving: .text).parameter("name", name).body(.text("hello"))
        #expect(try await provider.send(request) == "created!")
        await #expect(throws: CourierError.self) { try await provider.send(request) }

        let base = [("http.request.method", "POST"), ("server.address", "127.0.0.1"), ("server.port", String(port)), ("url.template", "/script/{name}")]
        let created = try metrics.expectTimer("http.client.request.duration", base + [("http.response.status_code", "201")])
        #expect(created.values.count == 1)
        #expect(created.values.allSatisfy { $0 > 0 && $0 < 30_000_000_000 })
        let failed = try metrics.expectTimer("http.client.request.duration", base + [("http.response.status_code", "404"), ("error.type", "404")])
        #expect(failed.values.count == 1)
        // No raw path among the dimensions.
        #expect(metrics.timers.allSatisfy { timer in !timer.dimensions.contains { $0.1.contains(name) } })

        let active = try metrics.expectMeter("http.client.active_requests", base)
        #expect(active.values == [1, 0, 1, 0])
        let sent = try metrics.expectRecorder("http.client.request.body.size", base + [("http.response.status_code", "201")])
        #expect(sent.values == [5])
        let received = try metrics.expectRecorder("http.client.response.body.size", base + [("http.response.status_code", "201")])
        #expect(received.values == [8])
    }

    @Test("A streamed response's bytes are counted as its reader reads them", arguments: TransportKind.allCases)
    func streamedBytes(transport: TransportKind) async throws {
        let (provider, tracer, metrics) = try await provider(transport)
        let name = scriptName("streamed", transport)
        FaultServer.script(name, [.stream(contentType: "text/plain", chunks: ["abc", "defg", "hi"])])
        let response = try await provider.send(Request(.get, "/script/:name", receiving: .stream).parameter("name", name))
        #expect(metrics.recorders(label: "http.client.response.body.size").isEmpty)
        // The span ends when the head has arrived; the body is the caller's to read.
        #expect(tracer.finishedSpans.contains { $0.text("url.full")?.hasSuffix(name) == true })
        #expect(try await response.collect(upTo: 1024).count == 9)
        #expect(metrics.recorders(label: "http.client.response.body.size").flatMap(\.values) == [9])
    }

    @Test("Query values are redacted unless allowed; credentials never appear", arguments: TransportKind.allCases)
    func redaction(transport: TransportKind) async throws {
        var (provider, tracer, _) = try await provider(transport)
        let port = try await FaultServer.port()
        func send(_ queryValues: Observability.QueryValues) async throws -> String? {
            let name = scriptName("query", transport)
            FaultServer.script(name, [.answer(status: 200, body: "ok")])
            provider.observability.queryValues = queryValues
            _ = try await provider.send(Request(.get, "/script/:name", receiving: .data).parameter("name", name).query("token", "s3cr3t").query("page", 2))
            return tracer.finishedSpans.first { $0.text("url.template") == "/script/{name}" && $0.text("url.full")?.contains(name) == true }?.text("url.full")
        }
        let prefix = "http://127.0.0.1:\(port)/script/"
        let redacted = try await send(.redacted)
        #expect(redacted?.hasPrefix(prefix) == true)
        #expect(redacted?.hasSuffix("?token=REDACTED&page=REDACTED") == true, "\(redacted ?? "")")
        #expect(try await send(.only(["page"]))?.hasSuffix("?token=REDACTED&page=2") == true)
        #expect(try await send(.all)?.hasSuffix("?token=s3cr3t&page=2") == true)

        // A base URL with credentials: they are not in the span.
        var withUser = Provider(baseURL: "http://user:hunter2@127.0.0.1:\(port)", transport: provider.transport)
        withUser.observability = provider.observability
        let name = scriptName("userinfo", transport)
        FaultServer.script(name, [.answer(status: 200, body: "ok")])
        _ = try? await withUser.send(Request(.get, "/script/\(name)", receiving: .data))
        let span = try #require(tracer.finishedSpans.first { $0.text("url.full")?.contains(name) == true })
        #expect(span.text("url.full") == "http://127.0.0.1:\(port)/script/\(name)")
    }

    @Test("One log entry per request: debug on success, the failure level on failure, secrets kept out", arguments: TransportKind.allCases)
    func logs(transport: TransportKind) async throws {
        var provider = try await transport.faultProvider(idle: .seconds(5))
        let log = RecordedLog()
        provider.observability.logger = log.logger()
        provider.observability.levels.failure = .warning
        let name = scriptName("log", transport)
        FaultServer.script(name, [.answer(status: 200, body: "fine"), .answer(status: 404, body: "gone")])
        let request = Request(.get, "/script/:name", receiving: .text).parameter("name", name).query("key", "s3cr3t")
            .header(.authorization, "Bearer t0ken").modified { $0.operationID = "Scripts.fetch" }
        #expect(try await provider.send(request) == "fine")
        await #expect(throws: CourierError.self) { try await provider.send(request) }

        let entries = log.entries
        try #require(entries.count == 2)
        #expect(entries[0].level == .debug)
        #expect(entries[0].metadata["courier.operation"] == "Scripts.fetch")
        #expect(entries[0].metadata["url.template"] == "/script/{name}")
        #expect(entries[0].metadata["http.response.status_code"] == "200")
        #expect(entries[0].metadata["courier.attempts"] == "1")
        #expect(entries[0].metadata["url.full"]?.hasSuffix("?key=REDACTED") == true)
        #expect(Double(entries[0].metadata["http.client.request.duration"] ?? "") ?? -1 > 0)
        #expect(entries[0].message.hasPrefix("GET /script/{name}"))
        #expect(entries[1].level == .warning)
        #expect(entries[1].metadata["error.type"] == "404")
        #expect(entries[1].metadata["http.response.status_code"] == "404")
        for entry in entries {
            let text = entry.message + entry.metadata.values.joined()
            #expect(!text.contains("s3cr3t") && !text.contains("t0ken"))
        }
    }

    @Test("Templates as the conventions write them: the base path first, {name} for :name, no query")
    func templates() {
        #expect(RequestObserver.template("/users/:id/repos", basePath: "") == "/users/{id}/repos")
        #expect(RequestObserver.template("/files/:name.json", basePath: "/api/v1") == "/api/v1/files/{name}.json")
        #expect(RequestObserver.template("/files/{name}.json?kind=raw", basePath: "/api/") == "/api/files/{name}.json")
        #expect(RequestObserver.template("search", basePath: "") == "/search")
        #expect(RequestObserver.template("/a/:/b:c/:x-y", basePath: "") == "/a/:/b:c/{x}-y")
        #expect(RequestObserver.redacted("/p?a=1&b&c=%20x&d=", .only(["c"])) == "/p?a=REDACTED&b&c=%20x&d=REDACTED")
        #expect(RequestObserver.redacted("/p", .redacted) == "/p")
    }

    @Test("With a provider's logger at a higher level, no entry is made; with nothing listening, no observer at all")
    func nothingListening() async throws {
        #expect(RequestObserver.start(Observability()) == nil)
        let log = RecordedLog()
        #expect(RequestObserver.start(Observability(logger: log.logger(level: .error))) == nil)
        #expect(RequestObserver.start(Observability(logger: log.logger(level: .info))) != nil)
        #expect(RequestObserver.start(Observability(tracer: NoOpTracer())) != nil)
        #expect(RequestObserver.start(Observability(metricsFactory: NOOPMetricsHandler.instance)) == nil)
        #expect(RequestObserver.start(Observability(metricsFactory: TestMetrics())) != nil)
    }

    @Test("Instruments set on the settings after they are made are seen, and so is their removal")
    func settingsChangedLater() {
        var settings = Observability()
        settings.metricsFactory = TestMetrics()
        #expect(RequestObserver.start(settings) != nil)
        settings.metricsFactory = nil
        #expect(RequestObserver.start(settings) == nil)
        settings.tracer = NoOpTracer()
        #expect(RequestObserver.start(settings) != nil)
        settings.tracer = nil
        settings.logger = RecordedLog().logger(level: .info)
        #expect(RequestObserver.start(settings) != nil)
        settings.logger = nil
        #expect(RequestObserver.start(settings) == nil)
        // With nothing of its own, either process-wide system alone is enough to listen.
        #expect(withTracer(TraceparentTracer()) { RequestObserver.start(settings) } != nil)
        #expect(withMetricsFactory(TestMetrics()) { RequestObserver.start(settings) } != nil)
    }

    @Test("Without a tracer or factory of its own, a provider reports to the ones bound to the task (as bootstrapped ones)", arguments: TransportKind.allCases)
    func boundToTask(transport: TransportKind) async throws {
        let provider = try await transport.faultProvider(idle: .seconds(5))
        let tracer = TraceparentTracer()
        let metrics = TestMetrics()
        let name = scriptName("bound", transport)
        FaultServer.script(name, [.answer(status: 200, body: "ok")])
        let value = try await withTracer(tracer) {
            try await withMetricsFactory(metrics) {
                try await provider.send(Request(.get, "/script/\(name)", receiving: .text))
            }
        }
        #expect(value == "ok")
        let span = try #require(tracer.finishedSpans.first { $0.text("url.full")?.hasSuffix(name) == true })
        #expect(FaultServer.arrivals(ofScript: name).first?.header("traceparent") == span.traceparent)
        #expect(metrics.timers(label: "http.client.request.duration").count == 1)
    }

    @Test("A request that fails before it is sent still gets its span and entry, with its error")
    func failedBeforeSending() async throws {
        var provider = Provider(baseURL: "http://127.0.0.1:9")
        let tracer = TraceparentTracer()
        let log = RecordedLog()
        provider.observability = Observability(tracer: tracer, logger: log.logger())
        let error = await #expect(throws: CourierError.self) {
            try await provider.send(Request(.get, "/users/:id", receiving: .data))
        }
        #expect(error?.kind == .invalidRequest)
        let span = try #require(tracer.finishedSpans.first)
        #expect(span.operationName == "GET /users/{id}")
        #expect(span.text("error.type") == "invalidRequest")
        #expect(span.status?.code == .error)
        #expect(log.entries.map(\.level) == [.info])
    }

    @Test("A request's span is the current one for what it starts, a parent's span the request's parent")
    func nesting() async throws {
        var provider = try await TransportKind.asyncHTTPClient.faultProvider(idle: .seconds(5))
        let tracer = TraceparentTracer()
        provider.observability.tracer = tracer
        let name = scriptName("nested", .asyncHTTPClient)
        FaultServer.script(name, [.answer(status: 200, body: "ok")])
        let seen = Locked<String?>(nil)
        let inner = provider.intercept { request, next in
            seen.withLock { $0 = ServiceContext.current?.inMemorySpanContext?.spanID }
            return try await next(request)
        }
        let outer = tracer.startSpan("handler", ofKind: .server)
        _ = try await ServiceContext.withValue(outer.context) {
            try await inner.send(Request(.get, "/script/\(name)", receiving: .data))
        }
        outer.end()
        let span = try #require(tracer.finishedSpans.first { $0.text("url.full")?.hasSuffix(name) == true })
        #expect(span.parentSpanID == outer.spanID)
        #expect(span.traceID == outer.traceID)
        #expect(seen.withLock { $0 } == span.spanID)
    }

    @Test("An AsyncHTTPClient that traces too: its span nests under Courier's, and one traceparent goes out, its own")
    func transportThatTraces() async throws {
        let tracer = TraceparentTracer()
        var configuration = HTTPClient.Configuration.courierDefault
        configuration.tracing.tracer = tracer
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        let name = scriptName("traced-client", .asyncHTTPClient)
        FaultServer.script(name, [.answer(status: 200, body: "ok")])
        let outcome = await Result { () async throws -> Data in
            var provider = Provider(baseURL: try await FaultServer.baseURL(), client: client)
            provider.observability.tracer = tracer
            return try await provider.send(Request(.get, "/script/\(name)", receiving: .data))
        }
        try await client.shutdown()
        _ = try outcome.get()
        let courier = try #require(tracer.finishedSpans.first { $0.operationName == "GET /script/\(name)" })
        #expect(courier.parentSpanID == nil)
        let transport = try #require(tracer.finishedSpans.first { $0.parentSpanID == courier.spanID })
        #expect(transport.operationName == "GET")
        let arrival = try #require(FaultServer.arrivals(ofScript: name).first)
        #expect(arrival.headers.filter { $0.name.lowercased() == "traceparent" }.map(\.value) == [transport.traceparent])
    }
}

extension Result where Failure == any Error {
    /// The outcome of `body`.
    init(_ body: () async throws -> Success) async {
        do {
            self = .success(try await body())
        } catch {
            self = .failure(error)
        }
    }
}
