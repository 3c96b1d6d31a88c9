public import CoreMetrics
public import Logging
public import Tracing

/// Where a provider reports its requests: spans through swift-distributed-tracing, metrics
/// through swift-metrics and log entries through swift-log, in OpenTelemetry's conventions for
/// HTTP clients.
///
/// With nothing set, a provider uses the tracer and the metrics factory the process bootstrapped
/// (`InstrumentationSystem.bootstrap`, `MetricsSystem.bootstrap`, or the ones bound to the task by
/// `withTracer` and `withMetricsFactory`), and logs nothing. When no tracer, no metrics backend
/// and no logger is in use, a request does no observability work at all.
///
/// ```swift
/// var provider = Provider(baseURL: "https://api.example.com")
/// provider.observability.logger = Logger(label: "api")
/// provider.observability.queryValues = .only(["page"])
/// ```
///
/// What is reported:
/// - **Spans**: one client span per request, named by its method and path template
///   (`GET /users/{id}`); when the request may be sent more than once (a retry policy or an
///   authenticator applies), one child span per attempt. The current span's context goes out in
///   the request's headers (W3C `traceparent` with an OpenTelemetry tracer).
/// - **Metrics**: `http.client.request.duration` (a timer, shown in seconds),
///   `http.client.active_requests`, `http.client.request.body.size`,
///   `http.client.response.body.size`, `courier.client.retries` and `courier.client.refreshes`,
///   with the method, the server, the template and the status as dimensions — never a raw path.
/// - **Logs**: one entry per request, at one of the two ``levels``.
public struct Observability: Sendable {
    /// The tracer of this provider's spans; `nil` uses `InstrumentationSystem.tracer`.
    public var tracer: (any Tracer)? { didSet { settle() } }
    /// The factory of this provider's metrics; `nil` uses `MetricsSystem.factory`.
    public var metricsFactory: (any MetricsFactory)? { didSet { settle() } }
    /// The logger of one entry per request; `nil` logs nothing.
    public var logger: Logger? { didSet { settle() } }
    /// Whether any of ``tracer``, ``metricsFactory`` and ``logger`` is set: asked on every
    /// request, which would otherwise copy each of them out to test it.
    private(set) var hasOwn = false
    /// The log levels of a request that succeeded (`.debug` unless you choose) and of one that
    /// failed, whatever the failure (`.info` unless you choose):
    /// `provider.observability.levels.failure = .warning`.
    public var levels: (success: Logger.Level, failure: Logger.Level) = (success: .debug, failure: .info)
    /// Which query values appear in spans and log entries; every one is redacted unless you
    /// choose otherwise.
    public var queryValues: QueryValues = .redacted

    /// Reports through `tracer`, `metricsFactory` and `logger`, where given.
    public init(tracer: (any Tracer)? = nil, metricsFactory: (any MetricsFactory)? = nil, logger: Logger? = nil) {
        self.tracer = tracer
        self.metricsFactory = metricsFactory
        self.logger = logger
        settle()
    }

    private mutating func settle() {
        hasOwn = tracer != nil || metricsFactory != nil || logger != nil
    }

    /// Which query values are written in the URLs of spans and log entries. Names always are.
    public enum QueryValues: Sendable, Hashable {
        /// Every value is written as `REDACTED`.
        case redacted
        /// Every value is written.
        case all
        /// The values of these names are written; the others are redacted.
        case only(Set<String>)
    }
}
