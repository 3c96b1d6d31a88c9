public import Foundation
public import HTTPTypes

/// The one error Courier throws: what went wrong, at which stage, with the request and response
/// that were involved.
///
/// Switch on ``kind`` to tell failures apart; read ``description`` for a message that names the
/// offending item and value.
///
/// ```swift
/// do {
///     _ = try await users.getUser(id: 42)
/// } catch let error as CourierError where error.kind == .status {
///     print(error.response?.statusCode ?? 0, error.response?.bodyText ?? "")
/// }
/// ```
public struct CourierError: Error, Sendable {
    /// The stage or reason of a failure. New kinds may be added; match the ones you handle and
    /// keep a default.
    public struct Kind: Hashable, Sendable, CustomStringConvertible {
        let name: String

        /// The request could not be built: a missing or unsafe path value, an invalid header,
        /// an invalid base URL or method.
        public static let invalidRequest = Kind(name: "invalidRequest")
        /// A request body or query value could not be encoded.
        public static let encoding = Kind(name: "encoding")
        /// A request modifier threw.
        public static let modifier = Kind(name: "modifier")
        /// A middleware or interceptor threw.
        public static let middleware = Kind(name: "middleware")
        /// The transport failed before a complete response arrived.
        public static let transport = Kind(name: "transport")
        /// The response body went past a limit — the provider's ``Provider/responseBodyLimit``,
        /// the one given to `collect(upTo:)` or `download` — and was not read further; the
        /// connection was closed rather than drained. The message names the limit.
        public static let responseTooLarge = Kind(name: "responseTooLarge")
        /// The request timed out.
        public static let timeout = Kind(name: "timeout")
        /// The request was cancelled.
        public static let cancelled = Kind(name: "cancelled")
        /// The server answered with a status outside 200–299.
        public static let status = Kind(name: "status")
        /// The response body could not be decoded into the expected type.
        public static let decoding = Kind(name: "decoding")
        /// A validation hook of the request or the provider rejected the response.
        public static let validation = Kind(name: "validation")
        /// The provider's ``Authenticator`` could not refresh its credential; the refresh's own
        /// error is the underlying error. Every request waiting for that refresh fails with it.
        public static let authentication = Kind(name: "authentication")
        /// A mock or stub had nothing to answer with.
        public static let unmocked = Kind(name: "unmocked")
        /// The TLS handshake failed: ``CourierError/tlsFailure`` names the host and the reason
        /// (an expired or untrusted certificate, a pin that does not match, a client certificate
        /// the server wanted…). Never retried.
        public static let tls = Kind(name: "tls")
        /// A ``TLSTrust`` could not be read (a certificate, key or pin that is not one) or cannot
        /// be enforced by the provider's transport; thrown when the provider is made.
        public static let tlsConfiguration = Kind(name: "tlsConfiguration")
        /// A server redirected an `https` request to plain `http`, which the provider's
        /// ``RedirectPolicy`` does not allow; the message names both addresses.
        public static let insecureRedirect = Kind(name: "insecureRedirect")
        /// The provider's ``Proxy`` could not be used: the transport cannot apply it, its address
        /// is not one, or the proxy refused the request (`407`, with the proxy's answer).
        public static let proxy = Kind(name: "proxy")

        /// The kind's name, such as `status` or `timeout`.
        public var description: String { name }
    }

    /// What failed.
    public var kind: Kind { cause.kind }

    /// The endpoint's name, such as `"Users.getUser"`, when the request came from one.
    public var operationID: String? {
        get { box.value.operationID }
        set { box.value.operationID = newValue }
    }

    /// The request as it was sent, or as far as it was built.
    public var request: RawRequest? {
        get { box.value.request }
        set { box.value.request = newValue }
    }

    /// The response, when one arrived (always present for ``Kind/status`` and ``Kind/decoding``).
    public var response: Response? {
        get { box.value.response }
        set { box.value.response = newValue }
    }

    /// Every attempt, in order, when the request was sent more than once or a retry was
    /// refused; empty otherwise.
    public internal(set) var attempts: [Attempt] {
        get { box.value.attempts }
        set { box.value.attempts = newValue }
    }

    /// Why no further attempt was made, when the retry policy could have retried this failure
    /// but did not: the attempts were used up, the budget was spent, the body could be read only
    /// once, the method is not idempotent…
    public internal(set) var retryStoppedBecause: String? {
        get { box.value.retryStoppedBecause }
        set { box.value.retryStoppedBecause = newValue }
    }

    var cause: Cause { box.value.cause }

    /// Everything the error holds, behind one reference: the error is one word wherever it is
    /// passed or kept, and every call that can throw it sets aside one word for it (in an async
    /// function's frame too) instead of the whole error.
    private var box: Frozen<Fields>

    private struct Fields: Sendable {
        let cause: Cause
        var operationID: String?
        var request: RawRequest?
        var response: Response?
        var attempts: [Attempt] = []
        var retryStoppedBecause: String?
    }

    init(_ cause: Cause, operationID: String? = nil, request: RawRequest? = nil, response: Response? = nil) {
        let request = request ?? response?.request
        box = Frozen(Fields(cause: cause, operationID: operationID ?? request?.operationID, request: request, response: response))
    }

    /// The error that caused this one — a `DecodingError`, a `URLError`, a middleware's error —
    /// when there is one.
    public var underlyingError: (any Error)? { cause.underlyingError }

    /// For ``Kind/tls``, the host and the reason the handshake failed.
    public var tlsFailure: TLSFailure? {
        if case .tls(let failure, _) = cause { return failure }
        return nil
    }

    /// The name of the middleware, interceptor or modifier that threw, for the kinds that have one.
    public var stage: String? { cause.stage }

    /// A message naming what was wrong, where, and the value involved.
    public var message: String { cause.message }
}

extension CourierError: CustomStringConvertible {
    /// The kind, the operation and the request's method and path when known, then the message:
    /// `CourierError.status in Users.getUser (GET /users/42): …`.
    public var description: String {
        var text = "CourierError.\(kind)"
        if let operationID { text += " in \(operationID)" }
        if let request { text += " (\(request.method) \(request.path))" }
        text += ": " + message
        if attempts.count > 1 {
            text += "; after \(attempts.count) attempts (" + attempts.map(\.summary).joined(separator: "; ") + ")"
        }
        if let retryStoppedBecause { text += "; not retried: " + retryStoppedBecause }
        return text
    }
}

extension CourierError: LocalizedError {
    /// The same text as `description`, so that `localizedDescription` shows it as well.
    public var errorDescription: String? { description }
}

extension CourierError {
    /// Creates an error for a mock or stub with nothing to answer for `operationID`.
    package static func unmocked(_ operationID: String, detail: String? = nil) -> CourierError {
        CourierError(.unmocked(operationID: operationID, detail: detail), operationID: operationID)
    }

    /// Wraps an error that a test double or custom component wants reported as a transport failure.
    package static func transport(_ error: any Error, operationID: String? = nil) -> CourierError {
        CourierError(.transport(error), operationID: operationID)
    }

    /// Wraps an error that a transport knows to be a timeout.
    package static func timeout(_ error: any Error, operationID: String? = nil) -> CourierError {
        CourierError(.timeout(error), operationID: operationID)
    }

    func with(operationID: String?, request: RawRequest?) -> CourierError {
        var copy = self
        if copy.operationID == nil { copy.operationID = operationID }
        if copy.request == nil { copy.request = request }
        return copy
    }
}

extension CourierError {
    /// One attempt of a request: the status that came back and the wait before the next. The
    /// error's `description` tells what came of each attempt, in words.
    public struct Attempt: Sendable {
        /// From 1.
        let number: Int
        /// The status that came back, when a response arrived.
        public let status: HTTPResponse.Status?
        /// The kind of failure, when no response arrived.
        let failure: Kind?
        /// What happened, in words: `503 Service Unavailable`, or the failure's message.
        let outcome: String
        /// How long Courier waited before the next attempt; `nil` for the last one.
        public internal(set) var wait: Duration?

        /// `#2: 503 Service Unavailable, then waited 0.4 seconds`, as the error's `description`
        /// lists it.
        var summary: String {
            "#\(number): \(outcome)" + (wait.map { ", then waited \($0)" } ?? "")
        }
    }

    /// This error with the attempts that led to it.
    func with(attempts: [Attempt], stoppedBecause reason: String?) -> CourierError {
        var copy = self
        if copy.attempts.isEmpty { copy.attempts = attempts }
        if copy.retryStoppedBecause == nil { copy.retryStoppedBecause = reason }
        return copy
    }
}

extension CourierError {
    /// The body of the failing response, decoded as `T` — an API's own error type — with JSON
    /// unless you pass another decoder: `try error.errorBody(APIError.self)?.message`.
    ///
    /// `nil` when no response arrived, when its status is below 400, or when its body is empty.
    /// A body that is not a `T` throws a ``Kind/decoding`` error that names `T` and quotes the body.
    public func errorBody<T: Decodable>(_ type: T.Type, decoder: any BodyDecoder = JSONDecoder()) throws(CourierError) -> T? {
        guard let response else { return nil }
        return try response.decodeBody(T.self, decoder: decoder, when: .failure)
    }
}
