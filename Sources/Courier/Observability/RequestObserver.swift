import CourierWire
import CoreMetrics
import Foundation
import HTTPTypes
import Instrumentation
import Logging
import OpenAPIRuntime
import Tracing

/// What one request reports — its span, its attempts' spans, its metrics and its log entry —
/// made only when a tracer, a propagating instrument, a metrics backend or a logger listens.
final class RequestObserver: Sendable {
    /// The tracer of the spans; `nil` when none is in use.
    let tracer: (any Tracer)?
    /// Writes the current span's context into the request's headers; `nil` when none is in use.
    let propagator: (any Instrument)?
    /// The metrics factory; `nil` when no backend is in use.
    let metrics: (any MetricsFactory)?
    /// The logger; `nil` when no entry would be written.
    let logger: Logger?
    let settings: Observability
    let started = ContinuousClock.now
    let startedAt: DefaultTracerClock.Instant
    let state = Locked(State())

    struct State {
        var description = Description()
        var span: (any Span)?
        var active: Meter?
        var attempts = 1
        var retries = 0
        var refreshes = 0
        /// Times the transport sent the request once more on a new connection, after the one it
        /// met closed before any answer.
        var resends = 0
        var requestBytes: Int64?
        var status: Int?
        /// Where the response came from, when the provider has a cache: `hit`, `miss`,
        /// `revalidated` or `stale`.
        var cache: String?
        var ended = false
    }

    /// What a request is, in the conventions' terms.
    struct Description: Sendable {
        var method = "GET"
        var originalMethod: String?
        var operationID = ""
        var template: String?
        var server = ""
        var port = 0
        var url = ""

        /// `GET /users/{id}`; `HTTP` for a method of its own; the method alone without a template.
        var spanName: String {
            let method = originalMethod == nil ? method : "HTTP"
            return template.map { "\(method) \($0)" } ?? method
        }

        /// The dimensions every metric has — bounded, never a raw path — once described.
        private(set) var dimensions: [(String, String)] = []

        /// Fixes ``dimensions`` from what is described.
        mutating func settle() {
            dimensions = [("http.request.method", method), ("server.address", server), ("server.port", String(port))]
            if let template { dimensions.append(("url.template", template)) }
        }
    }

    private init(tracer: (any Tracer)?, propagator: (any Instrument)?, metrics: (any MetricsFactory)?, logger: Logger?, settings: Observability) {
        self.tracer = tracer
        self.propagator = propagator
        self.metrics = metrics
        self.logger = logger
        self.settings = settings
        self.startedAt = tracer == nil ? DefaultTracerClock.Instant(nanosecondsSinceEpoch: 0) : DefaultTracerClock.now
    }

    /// An observer for a request sent under `settings`, or `nil` when nothing listens (then a
    /// request allocates nothing for observability); no-op instruments recognised by type.
    static func start(_ settings: Observability) -> RequestObserver? {
        // Most providers give nothing of their own: then only the process-wide systems can
        // listen, and asking them is all there is to do, without copying the settings'
        // instruments as the general case below does.
        if !settings.hasOwn,
            type(of: InstrumentationSystem.instrument) == NoOpInstrument.self,
            type(of: MetricsSystem.factory) == NOOPMetricsHandler.self
        {
            return nil
        }
        let tracer: (any Tracer)?
        let propagator: (any Instrument)?
        if let given = settings.tracer {
            tracer = given
            propagator = given
        } else {
            let instrument = InstrumentationSystem.instrument
            if type(of: instrument) == NoOpInstrument.self {
                tracer = nil
                propagator = nil
            } else {
                let found = InstrumentationSystem.tracer
                tracer = type(of: found) == NoOpTracer.self ? nil : found
                propagator = instrument
            }
        }
        let factory = settings.metricsFactory ?? MetricsSystem.factory
        let metrics = type(of: factory) == NOOPMetricsHandler.self ? nil : factory
        let logger = settings.logger.flatMap { $0.logLevel <= max(settings.levels.success, settings.levels.failure) ? $0 : nil }
        guard tracer != nil || propagator != nil || metrics != nil || logger != nil else { return nil }
        return RequestObserver(tracer: tracer, propagator: propagator, metrics: metrics, logger: logger, settings: settings)
    }

    // MARK: The request

    /// Starts the request's span, puts its context in the call's headers and counts the request
    /// in flight; the call carries the observer from here on. `base` describes the provider's
    /// base URL.
    func begin(_ call: inout Call, base: BaseURLParts?) {
        let description = Self.describe(call.request, template: call.pathTemplate, base: base, queryValues: settings.queryValues)
        var span: (any Span)?
        if let tracer {
            let started = tracer.startSpan(description.spanName, context: ServiceContext.current ?? .topLevel, ofKind: .client, at: startedAt)
            started.attributes = Self.attributes(of: description)
            span = started
        }
        if let propagator, let context = span?.context ?? ServiceContext.current {
            propagator.inject(context, into: &call.request.headers, using: HTTPFieldsInjector())
        }
        var requestBytes: Int64?
        if case .bytes(let data) = call.request.payload {
            requestBytes = Int64(data.count)
        } else if let body = call.request.body {
            if case .known(let length) = body.length {
                requestBytes = length
            } else if metrics != nil {
                call.request.body = ProgressHandler.atEnd { [weak self] bytes in self?.state.withLock { $0.requestBytes = bytes } }.counting(body)
            }
        }
        let active = metrics.map { Meter(label: "http.client.active_requests", dimensions: description.dimensions, factory: $0) }
        active?.increment(by: 1)
        state.withLock { state in
            state.description = description
            state.span = span
            state.active = active
            state.requestBytes = requestBytes
        }
        call.observer = self
    }

    /// Describes — and starts the span of — a request that failed before it was encoded, from
    /// `builder`, what it would have been.
    func describeUnsent(_ builder: RequestBuilder, baseURL: URL?, operationID: String) {
        var description = Description()
        description.operationID = operationID
        Self.describeMethod(builder.method, into: &description)
        let parts = baseURL.map(BaseURLParts.init)
        if let parts {
            description.server = parts.host
            description.port = parts.port
            description.url = parts.origin
        }
        if let absolute = builder.absoluteURL {
            description.url = Self.redacted(absolute.absoluteString, settings.queryValues)
        } else {
            let template = Self.template(builder.path, basePath: parts?.path ?? "")
            description.template = template
            description.url += template
        }
        description.settle()
        var span: (any Span)?
        if let tracer {
            span = tracer.startSpan(description.spanName, context: ServiceContext.current ?? .topLevel, ofKind: .client, at: startedAt)
            span?.attributes = Self.attributes(of: description)
        }
        state.withLock { [span] state in
            state.description = description
            state.span = span
        }
    }

    /// The status of the response the caller gets, and the size of its body when it was read.
    func responded(_ status: HTTPResponse.Status, bodyBytes: Int?, cache: CacheOutcome? = nil) {
        state.withLock {
            $0.status = status.code
            $0.cache = cache?.name
        }
        if let bodyBytes { recordResponseBytes(Int64(bodyBytes)) }
    }

    /// `body` counted as its reader reads it, when a metrics backend is in use.
    func countingResponse(_ body: HTTPBody) -> HTTPBody {
        guard metrics != nil else { return body }
        // The body holds the observer until its reader reaches the end: the call has returned by then.
        return ProgressHandler.atEnd { bytes in self.recordResponseBytes(bytes) }.counting(body)
    }

    func recordResponseBytes(_ bytes: Int64) {
        guard let metrics else { return }
        let (description, status) = state.withLock { ($0.description, $0.status) }
        var dimensions = description.dimensions
        if let status { dimensions.append(("http.response.status_code", String(status))) }
        Recorder(label: "http.client.response.body.size", dimensions: dimensions, aggregate: true, factory: metrics).record(bytes)
    }

    /// Ends the request: its span, its metrics, its log entry. `failure` is the error the caller
    /// gets, if any.
    func end(_ failure: CourierError? = nil) {
        let duration = ContinuousClock.now - started
        let (state, first) = state.withLock { state in
            defer { state.ended = true }
            if let status = failure?.response?.received.status.code { state.status = status }
            return (state, !state.ended)
        }
        guard first else { return }
        let description = state.description
        let errorType = failure.map(Self.errorType)
        if let span = state.span {
            if let status = state.status { span.attributes["http.response.status_code"] = status }
            if state.attempts > 1 { span.attributes["http.request.resend_count"] = state.attempts - 1 }
            if let cache = state.cache { span.attributes["courier.cache.outcome"] = cache }
            if state.resends > 0 { span.attributes["courier.connection.resends"] = state.resends }
            if let failure, let errorType {
                span.attributes["error.type"] = errorType
                span.recordError(failure)
                span.setStatus(SpanStatus(code: .error, message: failure.message))
            }
            span.end()
        }
        if let metrics {
            state.active?.decrement(by: 1)
            var dimensions = description.dimensions
            if let status = state.status { dimensions.append(("http.response.status_code", String(status))) }
            if let errorType { dimensions.append(("error.type", errorType)) }
            Timer(label: "http.client.request.duration", dimensions: dimensions, preferredDisplayUnit: .seconds, factory: metrics)
                .recordNanoseconds(Self.nanoseconds(duration))
            if let bytes = state.requestBytes {
                Recorder(label: "http.client.request.body.size", dimensions: dimensions, aggregate: true, factory: metrics).record(bytes)
            }
            if state.retries > 0 {
                Counter(label: "courier.client.retries", dimensions: description.dimensions, factory: metrics).increment(by: state.retries)
            }
            if state.refreshes > 0 {
                Counter(label: "courier.client.refreshes", dimensions: description.dimensions, factory: metrics).increment(by: state.refreshes)
            }
            if state.resends > 0 {
                Counter(label: "courier.client.connection.resends", dimensions: description.dimensions, factory: metrics).increment(by: state.resends)
            }
            if let cache = state.cache {
                Counter(label: "courier.client.cache", dimensions: description.dimensions + [("courier.cache.outcome", cache)], factory: metrics).increment()
            }
        }
        if let logger {
            log(to: logger, description, state, failure, errorType, duration)
        }
    }

    func log(to logger: Logger, _ description: Description, _ state: State, _ failure: CourierError?, _ errorType: String?, _ duration: Duration) {
        let level = failure == nil ? settings.levels.success : settings.levels.failure
        guard level >= logger.logLevel else { return }
        var metadata: Logger.Metadata = [
            "courier.operation": "\(description.operationID)",
            "http.request.method": "\(description.originalMethod ?? description.method)",
            "url.full": "\(description.url)",
            "courier.attempts": "\(state.attempts)",
            "http.client.request.duration": "\(Self.seconds(duration))",
        ]
        if let template = description.template { metadata["url.template"] = "\(template)" }
        if let status = state.status { metadata["http.response.status_code"] = "\(status)" }
        if let cache = state.cache { metadata["courier.cache.outcome"] = "\(cache)" }
        if state.resends > 0 { metadata["courier.connection.resends"] = "\(state.resends)" }
        let outcome: String
        if let failure, let errorType {
            metadata["error.type"] = "\(errorType)"
            metadata["error.message"] = "\(failure.message)"
            outcome = "failed (\(failure.kind)): \(failure.message)"
        } else {
            outcome = state.status.map { "\($0)" } ?? "done"
        }
        logger.log(level: level, "\(description.spanName) \(outcome)", metadata: metadata)
    }
}

/// Writes propagation fields into a request's headers, replacing any of the same name.
struct HTTPFieldsInjector: Injector {
    func inject(_ value: String, forKey key: String, into carrier: inout HTTPFields) {
        guard let name = HTTPField.Name(key) else { return }
        carrier[name] = value
    }
}

extension ProgressHandler {
    /// A handler told only the final count, once the body has been read to its end.
    static func atEnd(_ record: @escaping @Sendable (Int64) -> Void) -> ProgressHandler {
        ProgressHandler(interval: .seconds(Int64.max / 2)) { progress in
            if progress.total == progress.bytes { record(progress.bytes) }
        }
    }
}
