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
    private let tracer: (any Tracer)?
    /// Writes the current span's context into the request's headers; `nil` when none is in use.
    private let propagator: (any Instrument)?
    /// The metrics factory; `nil` when no backend is in use.
    private let metrics: (any MetricsFactory)?
    /// The logger; `nil` when no entry would be written.
    private let logger: Logger?
    private let settings: Observability
    private let started = ContinuousClock.now
    private let startedAt: DefaultTracerClock.Instant
    private let state = Locked(State())

    private struct State {
        var description = Description()
        var span: (any Span)?
        var active: Meter?
        var attempts = 1
        var retries = 0
        var refreshes = 0
        var requestBytes: Int64?
        var status: Int?
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

    /// An observer for a request sent under `settings`, or `nil` when nothing listens — then a
    /// request allocates nothing for observability.
    static func start(_ settings: Observability) -> RequestObserver? {
        let tracer: (any Tracer)?
        let propagator: (any Instrument)?
        if let given = settings.tracer {
            tracer = given
            propagator = given
        } else {
            let instrument = InstrumentationSystem.instrument
            if instrument is NoOpInstrument {
                tracer = nil
                propagator = nil
            } else {
                let found = InstrumentationSystem.tracer
                tracer = found is NoOpTracer ? nil : found
                propagator = instrument
            }
        }
        let factory = settings.metricsFactory ?? MetricsSystem.factory
        let metrics = factory is NOOPMetricsHandler ? nil : factory
        let logger = settings.logger.flatMap { $0.logLevel <= max(settings.successLevel, settings.failureLevel) ? $0 : nil }
        guard tracer != nil || propagator != nil || metrics != nil || logger != nil else { return nil }
        return RequestObserver(tracer: tracer, propagator: propagator, metrics: metrics, logger: logger, settings: settings)
    }

    // MARK: The request

    /// Starts the request's span, puts its context in `raw`'s headers and counts the request in
    /// flight; `raw` carries the observer from here on. `base` describes the provider's base URL.
    func begin(_ raw: inout RawRequest, base: BaseURLParts?) {
        let description = Self.describe(raw, base: base, queryValues: settings.queryValues)
        var span: (any Span)?
        if let tracer {
            let started = tracer.startSpan(description.spanName, context: ServiceContext.current ?? .topLevel, ofKind: .client, at: startedAt)
            started.attributes = Self.attributes(of: description)
            span = started
        }
        if let propagator, let context = span?.context ?? ServiceContext.current {
            propagator.inject(context, into: &raw.headers, using: HTTPFieldsInjector())
        }
        var requestBytes: Int64?
        if case .bytes(let data) = raw.payload {
            requestBytes = Int64(data.count)
        } else if let body = raw.body {
            if case .known(let length) = body.length {
                requestBytes = length
            } else if metrics != nil {
                raw.body = ProgressHandler.atEnd { [weak self] bytes in self?.state.withLock { $0.requestBytes = bytes } }.counting(body)
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
        raw.observer = self
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

    /// The head of the response the caller gets, and the size of its body when it was read.
    func responded(_ head: HTTPResponse, bodyBytes: Int?) {
        state.withLock { $0.status = head.status.code }
        if let bodyBytes { recordResponseBytes(Int64(bodyBytes)) }
    }

    /// `body` counted as its reader reads it, when a metrics backend is in use.
    func countingResponse(_ body: HTTPBody) -> HTTPBody {
        guard metrics != nil else { return body }
        return ProgressHandler.atEnd { [weak self] bytes in self?.recordResponseBytes(bytes) }.counting(body)
    }

    private func recordResponseBytes(_ bytes: Int64) {
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
            if let status = failure?.response?.head.status.code { state.status = status }
            return (state, !state.ended)
        }
        guard first else { return }
        let description = state.description
        let errorType = failure.map(Self.errorType)
        if let span = state.span {
            if let status = state.status { span.attributes["http.response.status_code"] = status }
            if state.attempts > 1 { span.attributes["http.request.resend_count"] = state.attempts - 1 }
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
        }
        if let logger {
            log(to: logger, description, state, failure, errorType, duration)
        }
    }

    private func log(to logger: Logger, _ description: Description, _ state: State, _ failure: CourierError?, _ errorType: String?, _ duration: Duration) {
        let level = failure == nil ? settings.successLevel : settings.failureLevel
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

    // MARK: Attempts

    /// Starts the span of attempt `number` — a child of the request's — and puts its context in
    /// `request`'s headers in place of the request's. `nil` when nothing traces.
    func beginAttempt(_ number: Int, _ request: inout RawRequest) -> (any Span)? {
        let (description, parent) = state.withLock { state in
            state.attempts = number
            return (state.description, state.span)
        }
        guard let tracer, let parent else { return nil }
        let span = tracer.startSpan(description.spanName, context: parent.context, ofKind: .client)
        var attributes = Self.attributes(of: description)
        if number > 1 { attributes["http.request.resend_count"] = number - 1 }
        span.attributes = attributes
        propagator?.inject(span.context, into: &request.headers, using: HTTPFieldsInjector())
        return span
    }

    /// Ends an attempt's span with its outcome.
    func endAttempt(_ span: (any Span)?, status: HTTPResponse.Status?, failure: CourierError?) {
        guard let span else { return }
        if let status {
            span.attributes["http.response.status_code"] = status.code
            if status.code >= 400 {
                span.attributes["error.type"] = String(status.code)
                span.setStatus(SpanStatus(code: .error))
            }
        }
        if let failure {
            span.attributes["error.type"] = Self.errorType(failure)
            span.recordError(failure)
            span.setStatus(SpanStatus(code: .error, message: failure.message))
        }
        span.end()
    }

    /// The request waits to be sent again.
    func retrying() { state.withLock { $0.retries += 1 } }

    /// The request waits for a refreshed credential.
    func refreshing() { state.withLock { $0.refreshes += 1 } }

    // MARK: Describing

    /// `raw` described; `base` describes its base URL when it is the provider's.
    static func describe(_ raw: RawRequest, base: BaseURLParts?, queryValues: Observability.QueryValues) -> Description {
        var description = Description()
        description.operationID = raw.operationID
        describeMethod(raw.method, into: &description)
        let parts = BaseURLParts.of(raw, provider: base)
        description.server = parts.host
        description.port = parts.port
        description.template = raw.pathTemplate.map { template($0, basePath: parts.path) }
        description.url = parts.origin + parts.path + redacted(raw.path, queryValues)
        description.settle()
        return description
    }

    private static let knownMethods: Set<HTTPRequest.Method> = [.get, .head, .post, .put, .delete, .connect, .options, .trace, .patch]

    private static func describeMethod(_ method: HTTPRequest.Method, into description: inout Description) {
        if knownMethods.contains(method) {
            description.method = method.rawValue
        } else {
            description.method = "_OTHER"
            description.originalMethod = method.rawValue
        }
    }

    /// The path template as the conventions write it: the base path before it, `{name}` for
    /// `:name`, no query.
    static func template(_ path: String, basePath: String) -> String {
        let bytes = Array(path.utf8)
        var output: [UInt8] = []
        output.reserveCapacity(basePath.utf8.count + bytes.count + 4)
        output.append(contentsOf: basePath.utf8)
        if output.last == UInt8(ascii: "/") { output.removeLast() }
        if bytes.first != UInt8(ascii: "/") { output.append(UInt8(ascii: "/")) }
        var index = 0
        while index < bytes.count, bytes[index] != UInt8(ascii: "?") {
            let byte = bytes[index]
            let segmentStart = index == 0 || bytes[index - 1] == UInt8(ascii: "/")
            if byte == UInt8(ascii: ":"), segmentStart, index + 1 < bytes.count, RequestBuilder.isIdentifierByte(bytes[index + 1]) {
                // `:name`, up to the first byte that cannot be in a name.
                var end = index + 1
                while end < bytes.count, RequestBuilder.isIdentifierByte(bytes[end]) { end += 1 }
                output.append(UInt8(ascii: "{"))
                output.append(contentsOf: bytes[(index + 1)..<end])
                output.append(UInt8(ascii: "}"))
                index = end
            } else {
                output.append(byte)
                index += 1
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// `target` with each query value written as `REDACTED` unless `queryValues` shows it.
    static func redacted(_ target: String, _ queryValues: Observability.QueryValues) -> String {
        guard let mark = target.firstIndex(of: "?") else { return target }
        if case .all = queryValues { return target }
        let query = target[target.index(after: mark)...]
        let items = query.split(separator: "&", omittingEmptySubsequences: false).map { item -> String in
            guard let equals = item.firstIndex(of: "=") else { return String(item) }
            let name = item[..<equals]
            if case .only(let shown) = queryValues, shown.contains(PercentDecoding.decode(name) ?? String(name)) {
                return String(item)
            }
            return "\(name)=REDACTED"
        }
        return target[..<mark] + "?" + items.joined(separator: "&")
    }

    private static func attributes(of description: Description) -> SpanAttributes {
        var attributes = SpanAttributes()
        attributes["http.request.method"] = description.method
        if let original = description.originalMethod { attributes["http.request.method_original"] = original }
        attributes["server.address"] = description.server
        attributes["server.port"] = description.port
        attributes["url.full"] = description.url
        if let template = description.template { attributes["url.template"] = template }
        attributes["courier.operation"] = description.operationID
        return attributes
    }

    /// The conventions' `error.type`: the status code for a status, and otherwise the kind.
    static func errorType(_ error: CourierError) -> String {
        if error.kind == .status, let code = error.response?.head.status.code { return String(code) }
        return error.kind.description
    }

    private static func nanoseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }

    private static func seconds(_ duration: Duration) -> Double {
        Double(nanoseconds(duration)) / 1e9
    }
}

extension RequestObserver {
    /// Runs `work` with `span`'s context as the task's current one, so that what it starts —
    /// the transport's own span, a refresh's request — nests under it.
    @inline(__always)
    static func within<T>(_ span: (any Span)?, _ work: () async throws(CourierError) -> T) async throws(CourierError) -> T {
        guard let span else { return try await work() }
        do {
            return try await ServiceContext.$current.withValue(span.context) { () async throws -> T in try await work() }
        } catch let error as CourierError {
            throw error
        } catch {
            throw CourierError(.transport(error))
        }
    }

    /// The request's span, to run the exchange under.
    var span: (any Span)? { state.withLock { $0.span } }
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

/// What spans and metrics say of a base URL, worked out once per provider: Foundation's URL
/// accessors cost microseconds each on Linux.
struct BaseURLParts: Sendable {
    /// The URL these are the parts of.
    let url: URL
    /// `scheme://host[:port]`, without credentials.
    let origin: String
    /// The scheme as written.
    let scheme: String?
    /// `host[:port]`, without credentials; an IPv6 host in brackets.
    let authority: String?
    /// The path, percent-encoded, without a trailing slash.
    let path: String
    let host: String
    /// The port, the scheme's default when none is written.
    let port: Int

    init(_ url: URL) {
        self.url = url
        scheme = url.scheme
        authority = url.authorityHost.map { host in url.port.map { "\(host):\($0)" } ?? host }
        origin = "\(url.scheme ?? "http")://\(authority ?? "")"
        var path = url.percentEncodedBasePath
        while path.hasSuffix("/") { path.removeLast() }
        self.path = path
        host = url.host ?? ""
        port = url.port ?? (url.scheme?.lowercased() == "https" ? 443 : 80)
    }
}

extension BaseURLParts {
    /// The parts of `raw`'s base URL: `provider`'s, worked out once, when `raw` goes to the
    /// provider's base URL; worked out now when it goes elsewhere (an absolute URL, or a base URL
    /// a hook replaced).
    static func of(_ raw: RawRequest, provider: BaseURLParts?) -> BaseURLParts {
        if raw.pathTemplate != nil, let provider, raw.baseURL == provider.url { return provider }
        return BaseURLParts(raw.baseURL)
    }
}
