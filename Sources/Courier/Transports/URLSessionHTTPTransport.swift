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
///   past ``maxInflation`` times its size on the wire fails while it arrives;
/// - on Linux, sends every request whose method is not idempotent on a connection of its own,
///   closed afterwards, so that libcurl never has a reused connection to send it again on.
///
/// URLSession cannot be flow-controlled safely on Linux (suspending a task that is receiving stops
/// the process), so a reader that falls more than ``maxUnreadBytes`` behind the network — under
/// a provider, its `responseBodyLimit` when that is larger — fails with `URLSessionBodyOverrun`
/// rather than letting the backlog grow without bound. For flow-controlled streams, use
/// AsyncHTTPClient.
public final class URLSessionHTTPTransport: ClientTransport, Sendable {
    /// The session idempotent requests share.
    public let session: URLSession
    /// The configuration of ``session``, also used for the one-off sessions of non-idempotent
    /// requests on Linux.
    let configuration: URLSessionConfiguration
    /// The most bytes received and not yet read that are held for a streamed body.
    public let maxUnreadBytes: Int
    /// How many times its size on the wire a compressed body may inflate to (at least 1 MiB);
    /// past that it fails with `DecompressionLimitExceeded`.
    public let maxInflation: Int
    private let delegate: TaskDelegate

    /// A transport on a new session made from `configuration`: by default an ephemeral one that
    /// keeps no cookies, no cache and no credentials. Redirects are never followed by URLSession
    /// itself; Courier follows them under its ``RedirectPolicy``.
    public init(
        configuration: URLSessionConfiguration? = nil,
        maxUnreadBytes: Int = 16 * 1024 * 1024,
        maxInflation: Int = 100
    ) {
        let delegate = TaskDelegate()
        self.delegate = delegate
        let configuration = configuration ?? Self.statelessConfiguration()
        self.configuration = configuration
        self.maxUnreadBytes = maxUnreadBytes
        self.maxInflation = maxInflation
        self.session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
    }

    deinit { session.finishTasksAndInvalidate() }

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

    private func send(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, idle: Duration?, maxUnread: Int) async throws -> (HTTPResponse, HTTPBody?) {
        var urlRequest = try Self.urlRequest(request, baseURL: baseURL)
        if let idle {
            let (seconds, attoseconds) = idle.components
            urlRequest.timeoutInterval = Double(seconds) + Double(attoseconds) / 1e18
        }
        if let body {
            // URLSession on Linux cannot stream a request body of unknown length; the request
            // body is the caller's own, so it is read into memory.
            var data = Data()
            if case .known(let length) = body.length { data.reserveCapacity(Int(clamping: length)) }
            for try await chunk in body { data.append(contentsOf: chunk) }
            urlRequest.httpBody = data
        }
        #if canImport(FoundationNetworking)
        if !request.method.isIdempotent {
            // A session of its own has a connection cache of its own: this request goes on a new
            // connection, which libcurl never re-sends on.
            urlRequest.setValue("close", forHTTPHeaderField: "Connection")
            return try await run(urlRequest, method: request.method, maxUnread: maxUnread, oneOff: true)
        }
        #endif
        return try await run(urlRequest, method: request.method, maxUnread: maxUnread, oneOff: false)
    }

    private func run(_ urlRequest: URLRequest, method: HTTPRequest.Method, maxUnread: Int, oneOff: Bool) async throws -> (HTTPResponse, HTTPBody?) {
        let exchange = Exchange(maxUnreadBytes: maxUnread, maxInflation: maxInflation, hasBody: method != .head)
        let (session, configuration, delegate) = (self.session, self.configuration, self.delegate)
        let answer = try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                exchange.start(continuation)
                // FoundationNetworking makes and starts a task synchronously on the session's
                // queue, which a busy transfer can hold for long: never on the cooperative pool.
                DispatchQueue.global().async {
                    let owner = oneOff ? URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil) : session
                    let task = owner.dataTask(with: urlRequest)
                    delegate.register(exchange, for: task)
                    if exchange.attach(task) { task.resume() } else { task.cancel() }
                    if oneOff { owner.finishTasksAndInvalidate() }
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

extension URLRequest {
    /// Sets `fields` as one dictionary: `addValue` would rewrite each name's case on Linux.
    /// Repeated fields are joined as HTTP allows, cookies with "; ".
    mutating func setHeaderFields(_ fields: HTTPFields) {
        var names: [String: String] = [:]
        var values: [String: String] = [:]
        for field in fields {
            let key = field.name.canonicalName
            let name = names[key] ?? field.name.rawName
            names[key] = name
            let separator = field.name == .cookie ? "; " : ", "
            values[name] = values[name].map { $0 + separator + field.value } ?? field.value
        }
        allHTTPHeaderFields = values
    }
}

extension HTTPRequest.Method {
    /// GET, HEAD, OPTIONS, TRACE, PUT and DELETE (RFC 9110 §9.2.2).
    var isIdempotent: Bool {
        switch self {
        case .get, .head, .options, .trace, .put, .delete: true
        default: false
        }
    }
}

/// A streamed body's reader fell too far behind the network: URLSession on Linux cannot pause a
/// transfer, so the transport stops it rather than hold an ever-growing backlog.
package struct URLSessionBodyOverrun: Error, CustomStringConvertible {
    /// The most bytes the transport holds unread.
    package let limit: Int
    /// What went wrong, with the limit.
    package var description: String {
        "the response body arrived more than \(limit) bytes ahead of its reader; URLSession cannot pause a transfer, so it was stopped"
    }
}

/// A compressed response body that inflated past ``URLSessionHTTPTransport/maxInflation`` times
/// its size on the wire: a decompression bomb, stopped while it arrives.
package struct DecompressionLimitExceeded: Error, CustomStringConvertible {
    /// The ratio allowed.
    package let ratio: Int
    /// The most bytes this body could inflate to.
    package let limit: Int
    /// What went wrong, with the limit.
    package var description: String { "the compressed response body inflated past \(limit) bytes (\(ratio) times its size on the wire)" }
}

/// A response whose `Content-Length` values disagree (RFC 9112 §6.3: the framing cannot be
/// trusted), refused before its body is read.
package struct ConflictingContentLength: Error, CustomStringConvertible {
    /// The values received, as URLSession reported them.
    package let values: String
    /// What went wrong, with the values.
    package var description: String { "the response has conflicting Content-Length values: \(values)" }
}

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

/// The delegate of every session of one transport: finds each task's ``Exchange``.
private final class TaskDelegate: NSObject, URLSessionDataDelegate, Sendable {
    private let exchanges = Locked([ObjectIdentifier: Exchange]())

    func register(_ exchange: Exchange, for task: URLSessionTask) {
        exchanges.withLock { $0[ObjectIdentifier(task)] = exchange }
    }

    private func exchange(_ task: URLSessionTask) -> Exchange? {
        exchanges.withLock { $0[ObjectIdentifier(task)] }
    }

    func urlSession(
        _ session: URLSession,
        dataTask: URLSessionDataTask,
        didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        let accepted = exchange(dataTask)?.receive(response) ?? false
        completionHandler(accepted ? .allow : .cancel)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        exchange(dataTask)?.receive(data)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let exchange = exchanges.withLock { $0.removeValue(forKey: ObjectIdentifier(task)) }
        exchange?.complete(error)
    }

    /// Redirects come back as responses; Courier follows them under its policy.
    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest,
        completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }

    /// A `401` or `407` carrying a challenge comes back as the response it is, without its body:
    /// there is nothing to answer with (no credential storage), and FoundationNetworking would
    /// otherwise leave the task waiting. Other challenges get the default handling.
    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        let space = challenge.protectionSpace
        let httpMethods = [
            NSURLAuthenticationMethodDefault, NSURLAuthenticationMethodHTTPBasic, NSURLAuthenticationMethodHTTPDigest,
            NSURLAuthenticationMethodNTLM, NSURLAuthenticationMethodNegotiate,
        ]
        guard httpMethods.contains(space.authenticationMethod), let exchange = exchange(task) else {
            completionHandler(.performDefaultHandling, nil)
            return
        }
        if let response = (challenge.failureResponse ?? task.response) as? HTTPURLResponse {
            exchange.receiveWithoutBody(response)
        } else if let url = task.originalRequest?.url {
            // FoundationNetworking may give neither: the challenge itself says what was asked.
            let scheme = space.authenticationMethod == NSURLAuthenticationMethodHTTPDigest ? "Digest" : "Basic"
            let realm = space.realm.map { " realm=\"\($0)\"" } ?? ""
            let status = space.isProxy() ? 407 : 401
            let field = space.isProxy() ? "Proxy-Authenticate" : "WWW-Authenticate"
            if let response = HTTPURLResponse(url: url, statusCode: status, httpVersion: "HTTP/1.1", headerFields: [field: scheme + realm, "Content-Length": "0"]) {
                exchange.receiveWithoutBody(response)
            }
        }
        // Answered from another queue: FoundationNetworking cancels the task synchronously.
        DispatchQueue.global().async { completionHandler(.cancelAuthenticationChallenge, nil) }
    }
}

/// An exchange held weakly, so that a body outliving its task does not keep it.
struct WeakExchange: Sendable {
    weak var exchange: Exchange?
    init(_ exchange: Exchange) { self.exchange = exchange }
}

/// The body of an exchange as its reader sees it: each chunk read is counted against the
/// exchange's backlog, and a reader that stops before the end — breaks out of its loop, drops
/// the iterator — cancels the task at once, closing the connection, even while the response
/// that holds the body lives on.
struct ExchangeBody: AsyncSequence, Sendable {
    typealias Element = ArraySlice<UInt8>
    let stream: AsyncThrowingStream<ArraySlice<UInt8>, any Error>
    let exchange: WeakExchange

    func makeAsyncIterator() -> Iterator {
        Iterator(base: stream.makeAsyncIterator(), reader: Reader(exchange))
    }

    struct Iterator: AsyncIteratorProtocol {
        var base: AsyncThrowingStream<ArraySlice<UInt8>, any Error>.AsyncIterator
        let reader: Reader

        mutating func next() async throws -> ArraySlice<UInt8>? {
            do {
                guard let chunk = try await base.next() else {
                    reader.ended = true
                    return nil
                }
                reader.exchange.exchange?.read(chunk.count)
                return chunk
            } catch {
                reader.ended = true
                throw error
            }
        }
    }

    /// Cancels the exchange when the reader goes away before the body ended.
    final class Reader {
        let exchange: WeakExchange
        var ended = false
        init(_ exchange: WeakExchange) { self.exchange = exchange }
        deinit { if !ended { exchange.exchange?.cancel() } }
    }
}
