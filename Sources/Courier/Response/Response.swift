import CourierWire
public import Foundation
public import HTTPTypes
import OpenAPIRuntime

/// A response as it arrived: status, headers, body bytes, and the request that produced it.
///
/// One kind of value is not a response that arrived: what a Papyrus-style `(Response) -> Void`
/// completion handler receives when none did. Its ``statusCode`` is `nil`, its ``error`` says
/// why, its ``request`` is the request as far as it was built (`nil` when it could not be), and
/// its head is empty.
public struct Response: Sendable {
    /// Status and headers as received, read and changed through ``status`` and ``headers``.
    var received: ResponseHead
    /// The body's bytes; `nil` when the response had no body or an empty one.
    public var body: Data?
    /// The request that produced this response; `nil` only when no request could be built.
    public var request: RawRequest?

    /// Set when no response arrived; boxed because an error may itself carry a response.
    let failure: FailureBox?
    /// Where the response came from, when the provider has a cache.
    var cacheOutcome: CacheOutcome?
    /// The unread body of a streamed response, carried past interceptors.
    var passthroughBody: HTTPBody?

    /// A response with `head` and `body` that answered `request`; an empty body is stored as
    /// `nil`.
    public init(head: HTTPResponse, body: Data?, request: RawRequest) {
        self.init(head: head, body: body, request: request, cache: nil)
    }

    /// The same, with where it came from when the provider has a cache.
    init(head: HTTPResponse, body: Data?, request: RawRequest, cache: CacheOutcome?) {
        self.init(received: ResponseHead(head), body: body, request: request, cache: cache)
    }

    /// The same, with the head as the pipeline carries it.
    init(received: ResponseHead, body: Data?, request: RawRequest, cache: CacheOutcome?) {
        self.received = received
        self.body = body?.isEmpty == false ? body : nil
        self.request = request
        self.failure = nil
        self.cacheOutcome = cache
    }

    /// Carries `error`: the response it holds, if one arrived, or an empty head otherwise.
    init(failure error: CourierError) {
        self.received = error.response?.received ?? ResponseHead(HTTPResponse(status: .init(code: 0)))
        self.body = error.response?.body
        self.request = error.request
        self.failure = FailureBox(error: error)
    }

    /// The status.
    public var status: HTTPResponse.Status {
        get { received.status }
        set { head.status = newValue }
    }

    /// The status code; `nil` when no response arrived.
    public var statusCode: Int? { failure == nil || failure?.error.response != nil ? received.status.code : nil }

    /// The headers.
    public var headers: HTTPFields {
        get { received.headerFields }
        set { head.headerFields = newValue }
    }

    /// Status and headers in HTTPTypes' form.
    var head: HTTPResponse {
        get { received.message }
        set { received = ResponseHead(newValue) }
    }

    /// The body as UTF-8 text, when there is a body.
    public var bodyText: String? { body.map { String(decoding: $0, as: UTF8.self) } }

    /// Where the response came from when the provider has a ``Provider/cache``: the server
    /// (``CacheOutcome/miss``), the cache fresh or stale, or the cache after a `304`; `nil`
    /// without a cache, or for a request the cache does not answer (a stream, a method other
    /// than `GET`).
    public var cache: CacheOutcome? { cacheOutcome }

    /// Whether a response arrived and its status is in 200–299.
    public var isSuccess: Bool { failure == nil && received.status.kind == .successful }

    /// Why the request failed: the error that kept a response from arriving, or one of kind
    /// ``CourierError/Kind/status`` when the status is outside 200–299; `nil` on success.
    public var error: CourierError? {
        if let failure { return failure.error }
        guard !isSuccess else { return nil }
        return CourierError(.status(received.status), operationID: request?.operationID, request: request, response: self)
    }

    /// Decodes the body into `T` after checking the status, as ``ResponseDecoder/json(_:decoder:)``
    /// does: an empty body is `nil` for an optional `T` and an error otherwise.
    public func decode<T: Decodable>(_ type: T.Type, using decoder: any BodyDecoder = JSONDecoder()) throws(CourierError) -> T {
        try __validate()
        guard let body else { return try emptyBody(as: T.self) }
        return try ResponseDecoding.decode(T.self, from: body, using: decoder, response: self)
    }

    /// What an empty body decodes to: `nil` for an optional `T`, an error otherwise. Apart from
    /// `decode` so that a body that is there costs no lookup of `T?`'s metadata.
    @inline(never)
    private func emptyBody<T>(as type: T.Type) throws(CourierError) -> T {
        if let optional = T.self as? any EmptyBodyDecodable.Type, let empty = optional.emptyBodyValue as? T { return empty }
        throw CourierError(.emptyBody(expected: "\(T.self)"), operationID: request?.operationID, request: request, response: self)
    }

    /// Whether the response has no body by definition (RFC 9110 §6.4.1): a `204`, a `205`, or
    /// the answer to a `HEAD`.
    var hasNoBodyByDefinition: Bool {
        let code = received.status.code
        return code == 204 || code == 205 || request?.method == .head
    }

    /// For generated code (`@EndpointResponse` types without an error body): throws ``error`` when
    /// the status is outside 200–299. Code of your own writes
    /// `if let error = response.error { throw error }`.
    public func __validate() throws(CourierError) {
        if let error { throw error }
    }
}

/// Holds an error inside a ``Response`` without making the two types contain each other by value.
final class FailureBox: Sendable {
    let error: CourierError
    init(error: CourierError) { self.error = error }
}

extension Response: CustomStringConvertible {
    /// A one-line summary for logs: status code and phrase, method and path, and body size, or why
    /// no response arrived.
    public var description: String {
        let target = request.map { "\($0.method) \($0.path)" } ?? "a request that could not be built"
        if let failure { return "no response for \(target): \(failure.error.message)" }
        return "\(received.status.code) \(received.status.displayPhrase) for \(target), \(body?.count ?? 0) bytes"
    }
}
