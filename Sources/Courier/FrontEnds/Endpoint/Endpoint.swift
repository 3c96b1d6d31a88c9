import Foundation

/// A request declared as a type: its properties are its parameters, its `Response` what comes
/// back.
///
/// Write it with the ``Endpoint(_:_:)-9o58z`` macro, which reads the
/// annotated properties and implements ``makeRequest()`` — setting each parameter directly,
/// without reflection:
///
/// ```swift
/// @Endpoint(.post, "/profiles/{userID}")
/// struct UpdateProfile {
///     typealias Response = Profile
///     @PathParameter var userID: String
///     @QueryItem var notify: Bool?
///     @RequestHeader(name: "X-Request-ID") var requestID: String?
///     @RequestBody var body: ProfileChanges
/// }
///
/// let profile = try await provider.send(UpdateProfile(userID: "ada", notify: true, body: changes))
/// ```
///
/// `provider.send(endpoint)` sends exactly ``Request/init(_:)`` of it: the same bytes, the same
/// `Accept`, the same validation.
public protocol Endpoint: Sendable {
    /// What a response becomes: any `Decodable` (the body, decoded as JSON on success), `String`,
    /// `Data`, a type made with ``EndpointResponse(format:)``, ``EmptyResponse``, ``Response``
    /// or ``StreamedResponse``.
    associatedtype Response

    /// The request this value describes.
    func makeRequest() -> RequestBuilder

    /// How the response becomes a ``Response``; chosen from its type unless you implement it.
    static var responseDecoder: ResponseDecoder<Response> { get }

    /// Checks a response before it is decoded, after the provider's validators; throw to fail the
    /// call with ``CourierError/Kind/validation``. Does nothing unless you implement it.
    func validate(_ response: Courier.Response) throws

    /// Changes this request once it is encoded, just before it enters the middleware chain, as
    /// ``Request/beforeSending(fileID:line:_:)`` does for a fluent request; throw to fail the call
    /// with ``CourierError/Kind/modifier``. Does nothing unless you implement it.
    func beforeSending(_ request: inout RawRequest) throws

    /// Bounds of this request's wait over the provider's ``Provider/timeouts``; none of its own
    /// unless you implement it.
    var timeouts: Timeouts { get }

    /// When this request is sent again after a failure, over the provider's
    /// ``Provider/retryPolicy``; the provider's unless you implement it
    /// (`var retryPolicy: RetryPolicy? { .standard }`) or put `@Retry(…)` on an `@Endpoint` struct.
    var retryPolicy: RetryPolicy? { get }

    /// How this request uses the provider's ``Provider/cache``; ``CachePolicy/useProtocol``
    /// unless you implement it (`var cachePolicy: CachePolicy? { .reload }`) or put `@Cache(…)`
    /// on an `@Endpoint` struct.
    var cachePolicy: CachePolicy? { get }

    /// The earlier name of ``beforeSending(_:)``: still called, after it, so that an endpoint
    /// written for the last release keeps its hook. Rename yours; `@Endpoint` says so with a
    /// fix-it.
    @available(*, deprecated, renamed: "beforeSending(_:)")
    func intercept(request: inout RawRequest) throws

    /// The earlier, shared form of ``retryPolicy-swift.property``: still read when the instance property is
    /// `nil`, so that an endpoint written for the last release keeps its policy. Make yours an
    /// instance property; `@Endpoint` says so with a fix-it.
    @available(*, deprecated, message: "implement the instance property 'var retryPolicy: RetryPolicy?'")
    static var retryPolicy: RetryPolicy? { get }
}

extension Endpoint {
    /// Accepts every response.
    public func validate(_ response: Courier.Response) throws {}
    /// Leaves the request as it is.
    public func beforeSending(_ request: inout RawRequest) throws {}
    /// None: the provider's bounds apply.
    public var timeouts: Timeouts { Timeouts() }
    /// None: the provider's policy applies.
    public var retryPolicy: RetryPolicy? { nil }
    /// None: the protocol's rules apply.
    public var cachePolicy: CachePolicy? { nil }
    /// Leaves the request as it is.
    @available(*, deprecated, renamed: "beforeSending(_:)")
    public func intercept(request: inout RawRequest) throws {}
    /// None.
    @available(*, deprecated, message: "implement the instance property 'var retryPolicy: RetryPolicy?'")
    public static var retryPolicy: RetryPolicy? { nil }
}

// The same choices as `@API`'s: every default goes through the generated-code table in
// `FrontEnds/API/Generated.swift`, so the two front-ends cannot drift apart.

extension Endpoint where Response: Decodable & SendableMetatype {
    /// The body decoded as JSON.
    public static var responseDecoder: ResponseDecoder<Response> { .__returning(Response.self) }
}

extension Endpoint where Response: __DefaultResponseDecodable {
    /// The decoder the type names: text for `String`, the bytes for `Data` (`nil` when empty for
    /// `Data?`), the ``Response`` as it is, a ``StreamedResponse`` with its body unread, a
    /// typed stream's own decoder (Server-Sent Events, JSON Lines, JSON text sequences), or a
    /// ``ResponseDecodable`` type's reading of the whole response.
    public static var responseDecoder: ResponseDecoder<Response> { Response.__defaultDecoder }
}

extension Endpoint where Response: __DefaultResponseDecodable & Decodable & SendableMetatype {
    /// The decoder the type names rather than JSON: text for `String`, the bytes for `Data`, a
    /// ``ResponseDecodable`` type's own reading.
    public static var responseDecoder: ResponseDecoder<Response> { Response.__defaultDecoder }
}

extension Request {
    /// The request of an ``Endpoint`` value: its parts, its response decoder, its validation and
    /// its hook — exactly what `provider.send(endpoint)` sends.
    public init<E: Endpoint>(_ endpoint: E) where Value == E.Response {
        self.init(endpoint.makeRequest(), receiving: E.responseDecoder)
        let timeouts = endpoint.timeouts
        if !timeouts.isEmpty { builder.timeouts = builder.timeouts.overridden(by: timeouts) }
        // The deprecated static form is read, as the last release read it, when there is no instance one.
        if let policy = endpoint.retryPolicy ?? E.retryPolicy { builder.retryPolicy = policy }
        if let policy = endpoint.cachePolicy { builder.cachePolicy = policy }
        validators.append(Validator(name: "\(E.self).validate(_:)", check: endpoint.validate))
        adjustments.append(Adjustment(name: "\(E.self).beforeSending(_:)", apply: endpoint.beforeSending))
        // The hook's deprecated name, still called, after it.
        adjustments.append(Adjustment(name: "\(E.self).intercept(request:)", apply: endpoint.intercept(request:)))
    }
}

extension Provider {
    /// Sends `endpoint`: `send(Request(endpoint))`.
    public func send<E: Endpoint>(_ endpoint: E) async throws(CourierError) -> E.Response {
        try await send(Request(endpoint))
    }

    /// Sends `endpoint` on a new task and reports the result to `completion`.
    public func send<E: Endpoint>(_ endpoint: E, completion: @escaping (Result<E.Response, CourierError>) -> Void) {
        send(Request(endpoint), completion: completion)
    }
}
