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
/// `maxUnreadBytes` instead.
///
/// A task is cancelled at most once, on its session's calls queue (URLSession waits for its
/// own work queue there), and never once it has ended: FoundationNetworking stops the process
/// when a cancellation reaches a task that has left its session.
final class Exchange: Sendable {
    private struct State {
        var head: CheckedContinuation<(HTTPResponse, HTTPBody?), any Error>?
        var body: AsyncThrowingStream<ArraySlice<UInt8>, any Error>.Continuation?
        /// The task while it runs: `nil` before it is made and once it has ended.
        var task: URLSessionDataTask?
        var calls: SessionCalls?
        /// The exchange is no longer wanted: its caller or its reader went away.
        var cancelled = false
        /// The task's cancellation has been asked for (or the task was never resumed).
        var cancelRequested = false
        var unread = 0
        var delivered = 0
        var finished = false
        /// For a compressed body of known length, the most bytes it may inflate to.
        var inflationLimit: Int?
        /// Run once the task has ended, or once it is known that it never will start.
        var whenTaskEnds: (@Sendable () -> Void)?
        var taskEnded = false
    }

    let maxUnreadBytes: Int
    let maxInflation: Int
    let hasBody: Bool
    /// For a body read whole, its limit: the task stops as soon as more has arrived, rather than
    /// when the reader, which lags behind libcurl, gets there.
    let wholeLimit: Int?
    private let state = Locked(State())

    init(maxUnreadBytes: Int, maxInflation: Int, hasBody: Bool, wholeLimit: Int? = nil) {
        self.maxUnreadBytes = maxUnreadBytes
        self.maxInflation = maxInflation
        self.hasBody = hasBody
        self.wholeLimit = wholeLimit
    }

    /// Waits for the head with `continuation`; resumes it at once when the exchange was
    /// cancelled before it began.
    func start(_ continuation: CheckedContinuation<(HTTPResponse, HTTPBody?), any Error>) {
        let cancelled = state.withLock { state in
            if !state.cancelled { state.head = continuation }
            return state.cancelled
        }
        if cancelled { continuation.resume(throwing: CancellationError()) }
    }

    /// Takes the lock once: whatever was written under it before is visible after.
    func synchronize() {
        state.withLock { _ in }
    }

    /// Keeps `task`, made on `calls`' session; `false` when the exchange was cancelled before it
    /// had one: the caller then cancels the task instead of resuming it, and has its
    /// cancellation already.
    func attach(_ task: URLSessionDataTask, calls: SessionCalls) -> Bool {
        let cancelled = state.withLock { state in
            state.task = task
            state.calls = calls
            state.cancelRequested = state.cancelled
            return state.cancelled
        }
        if cancelled { fail(CancellationError()) }
        return !cancelled
    }

    /// Whether the exchange still wants a task: `false` once it was cancelled.
    var wantsTask: Bool {
        state.withLock { !$0.cancelled }
    }

    /// Ends the exchange at once with a `CancellationError` — the caller does not wait for
    /// URLSession — and stops the task, unless it has ended or its cancellation was asked for
    /// already.
    func cancel() {
        let running: (URLSessionDataTask, SessionCalls)? = state.withLock { state in
            state.cancelled = true
            guard !state.cancelRequested, let task = state.task, let calls = state.calls else { return nil }
            state.cancelRequested = true
            return (task, calls)
        }
        fail(CancellationError())
        guard let (task, calls) = running else { return }
        calls.async {
            // Asked again at the last moment: the task may have ended while this waited.
            guard self.state.withLock({ $0.task != nil }) else { return }
            task.cancel()
        }
    }

    /// Runs `work` on the session's calls queue: for a call that waits for the session.
    func onSessionQueue(_ work: @escaping @Sendable () -> Void) {
        if let calls = state.withLock({ $0.calls }) {
            calls.async(work)
        } else {
            DispatchQueue.global().async(execute: work)
        }
    }

    /// The head arrived: returns it with a body that streams what follows. `false` refuses it.
    @discardableResult
    func receive(_ response: URLResponse, withBody: Bool = true) -> Bool {
        guard let response = response as? HTTPURLResponse else {
            abandon(URLError(.badServerResponse))
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
            abandon(ConflictingContentLength(values: lengths.joined(separator: ", ")))
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
        let outcome: Received = state.withLock { state in
            guard !state.finished, !state.cancelled else { return .dropped }
            state.unread += data.count
            state.delivered += data.count
            if let limit = state.inflationLimit, state.delivered > limit {
                return .refused(DecompressionLimitExceeded(ratio: maxInflation, limit: limit))
            }
            guard state.unread <= maxUnreadBytes else { return .refused(URLSessionBodyOverrun(limit: maxUnreadBytes)) }
            state.body?.yield(ArraySlice(data))
            if let limit = wholeLimit, state.delivered > limit {
                // Its reader fails at this chunk, the limit passed: the rest is not wanted.
                state.body?.finish()
                state.body = nil
                state.finished = true
                return .enough
            }
            return .kept
        }
        switch outcome {
        case .kept, .dropped: break
        case .refused(let problem): abandon(problem)
        case .enough: cancel()
        }
    }

    /// What became of a chunk.
    private enum Received {
        /// Handed to the reader.
        case kept
        /// Not wanted: the exchange is over.
        case dropped
        /// The body is refused for this reason.
        case refused(any Error)
        /// Handed to the reader, which takes no more after it.
        case enough
    }

    /// Runs `action` once the task has ended, or will never start; at once if that is so already.
    func whenTaskEnds(_ action: @escaping @Sendable () -> Void) {
        let ended = state.withLock { state in
            if !state.taskEnded { state.whenTaskEnds = action }
            return state.taskEnded
        }
        if ended { action() }
    }

    /// The request body failed while it was sent: the exchange fails with its error.
    func failUpload(_ error: any Error) {
        abandon(error)
    }

    /// The task ended, or will never start (`error` says why): it is never cancelled from now on.
    func complete(_ error: (any Error)?) {
        let ended = state.withLock { state in
            state.task = nil
            state.taskEnded = true
            defer { state.whenTaskEnds = nil }
            return state.whenTaskEnds
        }
        ended?()
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

    /// Fails the exchange with `error` and stops its task: FoundationNetworking on Linux ignores
    /// a delegate's refusal of a response, so the task would go on receiving.
    private func abandon(_ error: any Error) {
        fail(error)
        cancel()
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
