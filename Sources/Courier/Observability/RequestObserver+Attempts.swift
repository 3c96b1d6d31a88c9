import CoreMetrics
import CourierWire
import Foundation
import HTTPTypes
import Instrumentation
import Logging
import OpenAPIRuntime
import Tracing

extension RequestObserver {
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

    /// The transport sent the request once more on a new connection, for `reason`: an event on
    /// the request's span, and a count in its log entry and metrics.
    func resent(_ reason: String) {
        let span = state.withLock { state in
            state.resends += 1
            return state.span
        }
        span?.addEvent(SpanEvent(name: "courier.connection.resent", attributes: ["courier.connection.resend.reason": .string(reason)]))
    }

    /// Runs `work` with the transport told to report to this observer a request it sends once
    /// more on a new connection (the AsyncHTTPClient transport does; libcurl and URLSession do the
    /// same unseen).
    @inline(__always)
    func reportingResends<T>(_ work: () async throws(CourierError) -> T) async throws(CourierError) -> T {
        do {
            return try await ConnectionResends.$report.withValue({ [self] reason in resent(reason) }) { () async throws -> T in try await work() }
        } catch let error as CourierError {
            throw error
        } catch {
            throw CourierError(.transport(error))
        }
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
