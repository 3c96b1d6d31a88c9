import CourierWire
public import Foundation
#if canImport(FoundationNetworking)
public import FoundationNetworking
#endif
public import HTTPTypes
public import OpenAPIRuntime

/// A `ClientTransport` on URLSession that streams response bodies and keeps every call bounded.
///
/// It exists beside `OpenAPIURLSession.URLSessionTransport` because of what that transport does
/// on Linux: a `401` carrying a Basic challenge never returns; a `POST` on a kept-alive
/// connection that the server closes is sent a second time (`URLSessionTransportTests` shows
/// it); and every body is buffered whole before the first byte is returned, so no limit can stop
/// an endless one. It uses a completion handler there, so no wrapper can reach the data or the
/// challenge. This transport:
///
/// - returns a `401` or `407` carrying a challenge as the response it is (its body left
///   unread), where FoundationNetworking would leave the task waiting;
/// - delivers the body as it arrives, so the provider's `responseBodyLimit` and
///   `collect(upTo:)` stop a long body while it is received, and cancels the task as soon as the
///   body is dropped — the connection is closed, not drained;
/// - refuses a response with conflicting `Content-Length` values (RFC 9112 §6.3);
/// - bounds decompression: URLSession inflates compressed bodies itself, so one that inflates
///   past `maxInflation` times its size on the wire fails while it arrives;
/// - on Linux, sends every request whose method is not idempotent on a connection of its own,
///   closed afterwards, so that libcurl never has a reused connection to send it again on.
///
/// URLSession cannot be flow-controlled safely on Linux (suspending a task that is receiving stops
/// the process), so a reader that falls more than `maxUnreadBytes` behind the network — under
/// a provider, its `responseBodyLimit` when that is larger — fails with `URLSessionBodyOverrun`
/// rather than letting the backlog grow without bound. For flow-controlled streams, use
/// AsyncHTTPClient.
public final class URLSessionHTTPTransport: ClientTransport, Sendable {
    /// The session idempotent requests share.
    var session: URLSession { calls.session }
    /// The configuration of `session`, also used for the one-off sessions of non-idempotent
    /// requests on Linux.
    let configuration: URLSessionConfiguration
    /// The most bytes received and not yet read that are held for a streamed body.
    let maxUnreadBytes: Int
    /// How many times its size on the wire a compressed body may inflate to (at least 1 MiB);
    /// past that it fails with `DecompressionLimitExceeded`.
    let maxInflation: Int
    private let delegate: TaskDelegate
    /// `session` with the queue that Courier's calls into it are made on.
    private let calls: SessionCalls

    /// A transport on a new session made from `configuration`: by default an ephemeral one that
    /// keeps no cookies, no cache and no credentials. Redirects are never followed by URLSession
    /// itself; Courier follows them under its ``RedirectPolicy``. `maxUnreadBytes` bounds the bytes
    /// received and not yet read that are held for a streamed body; a compressed body may inflate
    /// to `maxInflation` times its size on the wire (at least 1 MiB) before it fails.
    ///
    /// The session is made from a copy of `configuration`. On Linux that copy has no `URLCache`:
    /// FoundationNetworking looks a task up in the cache on a background queue, and a
    /// cancellation that arrives meanwhile can reach the task after it has left its session,
    /// which stops the process (swift-corelibs-foundation issue 3296).
    public init(
        configuration: URLSessionConfiguration? = nil,
        maxUnreadBytes: Int = 16 * 1024 * 1024,
        maxInflation: Int = 100
    ) {
        let delegate = TaskDelegate()
        self.delegate = delegate
        let configuration = Self.ownConfiguration(configuration)
        self.configuration = configuration
        self.maxUnreadBytes = maxUnreadBytes
        self.maxInflation = maxInflation
        self.calls = SessionCalls(URLSession(configuration: configuration, delegate: delegate, delegateQueue: Self.delegateQueue()))
    }

    deinit { session.finishTasksAndInvalidate() }

    /// A copy of `given`, or ``statelessConfiguration()`` when none is given; on Linux, without
    /// a `URLCache` in either case.
    static func ownConfiguration(_ given: URLSessionConfiguration?) -> URLSessionConfiguration {
        guard let own = given?.copy() as? URLSessionConfiguration else { return statelessConfiguration() }
        #if canImport(FoundationNetworking)
        own.urlCache = nil
        #endif
        return own
    }

    /// How many of this transport's tasks have not been reported complete yet.
    package var tasksInFlight: Int { delegate.count }

    /// The delegate queue of this transport's sessions: on Linux one that runs each callback in
    /// place, as libcurl receives (``InlineDelegateQueue``); elsewhere URLSession's own.
    static func delegateQueue() -> OperationQueue? {
        #if canImport(FoundationNetworking)
        InlineDelegateQueue()
        #else
        nil
        #endif
    }

    /// An ephemeral configuration with cookies, cache and credential storage switched off, so
    /// that nothing is shared with `URLSession.shared`, nothing is written to disk and no state
    /// is carried from one request to the next.
    static func statelessConfiguration() -> URLSessionConfiguration {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpCookieAcceptPolicy = .never
        configuration.httpShouldSetCookies = false
        configuration.httpCookieStorage = nil
        configuration.urlCredentialStorage = nil
        configuration.urlCache = nil
        return configuration
    }

    /// Sends `request`; the response head is returned as soon as it arrives and its body streams.
    public func send(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String) async throws -> (HTTPResponse, HTTPBody?) {
        try await send(request, body: body, baseURL: baseURL, idle: nil, maxUnread: maxUnreadBytes)
    }

    /// This transport as a provider uses it: a request's idle bound as its `timeoutInterval`,
    /// and the most bytes held for a reader.
    struct Bounded: ClientTransport {
        let base: URLSessionHTTPTransport
        let idle: Duration?
        let maxUnread: Int

        func send(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String) async throws -> (HTTPResponse, HTTPBody?) {
            try await base.send(request, body: body, baseURL: baseURL, idle: idle, maxUnread: maxUnread)
        }
    }

    private func send(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, idle: Duration?, maxUnread: Int, wholeLimit: Int? = nil
    ) async throws -> (HTTPResponse, HTTPBody?) {
        do {
            return try await exchange(request, body: body, baseURL: baseURL, idle: idle, maxUnread: maxUnread, wholeLimit: wholeLimit)
        } catch {
            if baseURL.scheme == "https", let failure = await Self.tlsFailure(error, url: baseURL) { throw failure }
            throw error
        }
    }

    private func exchange(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, idle: Duration?, maxUnread: Int, wholeLimit: Int?
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var urlRequest = try Self.urlRequest(request, baseURL: baseURL)
        if let idle {
            let (seconds, attoseconds) = idle.components
            urlRequest.timeoutInterval = Double(seconds) + Double(attoseconds) / 1e18
        }
        #if canImport(FoundationNetworking)
        if !request.method.isIdempotent {
            // A session of its own has a connection cache of its own: this request goes on a new
            // connection, which libcurl never re-sends on.
            urlRequest.setValue("close", forHTTPHeaderField: "Connection")
            return try await run(urlRequest, body: body, method: request.method, maxUnread: maxUnread, wholeLimit: wholeLimit, oneOff: true)
        }
        #endif
        return try await run(urlRequest, body: body, method: request.method, maxUnread: maxUnread, wholeLimit: wholeLimit, oneOff: false)
    }

    private func run(
        _ request: URLRequest, body: HTTPBody?, method: HTTPRequest.Method, maxUnread: Int, wholeLimit: Int?, oneOff: Bool
    ) async throws -> (HTTPResponse, HTTPBody?) {
        let exchange = Exchange(maxUnreadBytes: maxUnread, maxInflation: maxInflation, hasBody: method != .head, wholeLimit: wholeLimit)
        var withBody = request
        if let body { try await Self.attach(body, to: &withBody, for: exchange) }
        let urlRequest = withBody
        let delegate = self.delegate
        let calls = oneOff ? SessionCalls(URLSession(configuration: configuration, delegate: delegate, delegateQueue: Self.delegateQueue())) : self.calls
        let answer = try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                exchange.start(continuation)
                calls.async {
                    // The transport stays until its task exists: once its deinit has invalidated
                    // the session, asking that session for a task stops the process.
                    withExtendedLifetime(self) {
                        defer { if oneOff { calls.session.finishTasksAndInvalidate() } }
                        // Cancelled while this waited: the caller has its answer already.
                        guard exchange.wantsTask else {
                            exchange.complete(CancellationError())
                            return
                        }
                        let task = calls.session.dataTask(with: urlRequest)
                        delegate.register(exchange, for: task)
                        if exchange.attach(task, calls: calls) { task.resume() } else { task.cancel() }
                    }
                }
            }
        } onCancel: {
            exchange.cancel()
        }
        // The head and body were made on the delegate's queue and handed over under the
        // exchange's lock; taking it here makes that hand-over visible to ThreadSanitizer too.
        exchange.synchronize()
        return answer
    }

    static func urlRequest(_ request: HTTPRequest, baseURL: URL) throws -> URLRequest {
        guard let url = URL(string: baseURL.absoluteString + (request.path ?? "/")) else {
            throw URLError(.badURL)
        }
        var urlRequest = URLRequest(url: url)
        urlRequest.httpMethod = request.method.rawValue
        urlRequest.setHeaderFields(request.headerFields)
        return urlRequest
    }
}

extension URLSessionHTTPTransport: BoundableTransport {
    /// The idle bound as each request's `timeoutInterval`; at most `bodyLimit` bytes or this
    /// transport's own bound, whichever is larger, held for a reader (a buffered read may hold
    /// up to `bodyLimit`; a stream is not bound by it).
    package func bounded(by timeouts: Timeouts, bodyLimit: Int) -> any ClientTransport {
        Bounded(base: self, idle: timeouts.idle, maxUnread: max(bodyLimit, maxUnreadBytes))
    }
}

extension URLSessionHTTPTransport.Bounded: WholeBodyTransport {
    /// The body as it streams, for the pipeline to read whole up to `limit`: the task stops as
    /// soon as more than `limit` bytes have arrived, while the reader catches up.
    nonisolated(nonsending) func sendReadingWhole(
        _ head: HTTPRequest, payload: RequestPayload?, baseURL: URL, limit: Int
    ) async throws -> (ResponseHead, ReceivedBody) {
        let (head, body) = try await base.send(head, body: payload?.httpBody, baseURL: baseURL, idle: idle, maxUnread: maxUnread, wholeLimit: limit)
        return (ResponseHead(head), .stream(body))
    }
}
