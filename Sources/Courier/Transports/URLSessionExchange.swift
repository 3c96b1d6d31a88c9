import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPTypes
import OpenAPIRuntime

/// One task's state: the continuation waiting for the head, then the body's stream.
///
/// There is no flow control: FoundationNetworking stops with a fatal error when a task is
/// suspended while data for it is still queued, so the backlog is bounded by
/// `maxUnreadBytes` instead. URLSession runs `cancel` synchronously on its own queue, so it is
/// called from a dispatch queue, never from the reader's task or the delegate's queue.
final class Exchange: Sendable {
    private struct State {
        var head: CheckedContinuation<(HTTPResponse, HTTPBody?), any Error>?
        var body: AsyncThrowingStream<ArraySlice<UInt8>, any Error>.Continuation?
        var task: URLSessionDataTask?
        var cancelled = false
        var unread = 0
        var delivered = 0
        var finished = false
        /// For a compressed body of known length, the most bytes it may inflate to.
        var inflationLimit: Int?
    }

    let maxUnreadBytes: Int
    let maxInflation: Int
    let hasBody: Bool
    private let state = Locked(State())

    init(maxUnreadBytes: Int, maxInflation: Int, hasBody: Bool) {
        self.maxUnreadBytes = maxUnreadBytes
        self.maxInflation = maxInflation
        self.hasBody = hasBody
    }

    func start(_ continuation: CheckedContinuation<(HTTPResponse, HTTPBody?), any Error>) {
        state.withLock { $0.head = continuation }
    }

    /// Takes the lock once: whatever was written under it before is visible after.
    func synchronize() {
        state.withLock { _ in }
    }

    /// Keeps `task`; `false` when the exchange was cancelled before it had one, in which case
    /// the caller has its cancellation already.
    func attach(_ task: URLSessionDataTask) -> Bool {
        let cancelled = state.withLock { state in
            state.task = task
            return state.cancelled
        }
        if cancelled { fail(CancellationError()) }
        return !cancelled
    }

    /// Stops the task, from a global queue: a `cancel` that URLSession holds up must not hold
    /// up anything else.
    func cancel() {
        let task = state.withLock { state in
            state.cancelled = true
            return state.task
        }
        guard let task else { return }
        DispatchQueue.global().async { task.cancel() }
    }

    /// The head arrived: returns it with a body that streams what follows. `false` refuses it.
    @discardableResult
    func receive(_ response: URLResponse, withBody: Bool = true) -> Bool {
        guard let response = response as? HTTPURLResponse else {
            fail(URLError(.badServerResponse))
            return false
        }
        var fields = HTTPFields()
        var lengths: [String] = []
        for (key, value) in response.allHeaderFields {
            guard let name = (key as? String).flatMap({ HTTPField.Name($0) }), let value = value as? String else { continue }
            if name == .contentLength { lengths.append(value) }
            if name == .setCookie {
                // URLSession joins repeated headers with commas; cookies are split again.
                for cookie in Response.splitJoinedSetCookie(value) { fields.append(HTTPField(name: name, value: cookie)) }
            } else {
                fields.append(HTTPField(name: name, value: value))
            }
        }
        let declared = Set(lengths.flatMap { $0.split(separator: ",").map { $0.trimmingWhitespace() } })
        if declared.count > 1 {
            fail(ConflictingContentLength(values: lengths.joined(separator: ", ")))
            return false
        }
        let head = HTTPResponse(status: .init(code: response.statusCode), headerFields: fields)
        guard hasBody, withBody else {
            let waiting = state.withLock { state in
                defer { state.head = nil }
                return state.head
            }
            waiting?.resume(returning: (head, nil))
            return true
        }
        let declaredLength = declared.first.flatMap { Int64($0) }
        let encoding = fields[.contentEncoding]?.lowercased()
        let compressed = encoding != nil && encoding != "identity"
        // URLSession inflates a compressed body itself, asked or not; its length on the wire
        // says nothing of what is delivered, except how far it may reasonably inflate.
        let length = compressed ? .unknown : declaredLength.map { HTTPBody.Length.known($0) } ?? .unknown
        let inflationLimit = compressed ? declaredLength.map { max(Int(clamping: $0).multipliedReportingOverflow(by: maxInflation).partialValue, 1 << 20) } : nil
        let (stream, continuation) = AsyncThrowingStream<ArraySlice<UInt8>, any Error>.makeStream()
        continuation.onTermination = { [weak self] termination in
            // The reader is gone (failed or dropped the body): stop receiving at once.
            if case .cancelled = termination { self?.cancel() }
        }
        let body = HTTPBody(ExchangeBody(stream: stream, exchange: WeakExchange(self)), length: length, iterationBehavior: .single)
        let waiting = state.withLock { state in
            state.body = continuation
            state.inflationLimit = inflationLimit
            defer { state.head = nil }
            return state.head
        }
        waiting?.resume(returning: (head, body))
        return true
    }

    /// A response whose body will not be read — a challenge URLSession would otherwise sit on:
    /// the head with an empty body (or, when the head was already returned, its body ended), and
    /// the task's end ignored.
    func receiveWithoutBody(_ response: HTTPURLResponse) {
        let (headPending, body) = state.withLock { state in
            defer { state.finished = state.head == nil; state.body = state.head == nil ? nil : state.body }
            return (state.head != nil, state.body)
        }
        if headPending {
            receive(response, withBody: false)
            state.withLock { $0.finished = true }
        } else {
            body?.finish()
        }
    }

    /// The reader took `count` bytes.
    func read(_ count: Int) {
        state.withLock { $0.unread -= count }
    }

    func receive(_ data: Data) {
        let problem: (any Error)? = state.withLock { state in
            guard !state.finished else { return nil }
            state.unread += data.count
            state.delivered += data.count
            if let limit = state.inflationLimit, state.delivered > limit {
                return DecompressionLimitExceeded(ratio: maxInflation, limit: limit)
            }
            guard state.unread <= maxUnreadBytes else { return URLSessionBodyOverrun(limit: maxUnreadBytes) }
            state.body?.yield(ArraySlice(data))
            return nil
        }
        if let problem {
            fail(problem)
            cancel()
        }
    }

    func complete(_ error: (any Error)?) {
        if let error {
            fail(error)
        } else {
            let (head, body) = state.withLock { state in
                state.finished = true
                defer { state.head = nil; state.body = nil }
                return (state.head, state.body)
            }
            head?.resume(throwing: URLError(.badServerResponse))
            body?.finish()
        }
    }

    private func fail(_ error: any Error) {
        let (head, body) = state.withLock { state in
            state.finished = true
            defer { state.head = nil; state.body = nil }
            return (state.head, state.body)
        }
        head?.resume(throwing: error)
        body?.finish(throwing: error)
    }
}
