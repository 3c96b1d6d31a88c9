public import Foundation

/// Generates `<Name>API`, a struct conforming to the annotated protocol whose functions send
/// their requests through a ``Provider``.
///
/// ```swift
/// @API
/// protocol Users {
///     @GET("/users/:id")
///     func getUser(id: Int) async throws -> User
/// }
///
/// let users: Users = UsersAPI(provider: Provider(baseURL: "https://api.example.com"))
/// ```
@attached(peer, names: suffixed(API))
public macro API() = #externalMacro(module: "CourierMacros", type: "APIMacro")

/// Generates `<Name>Mock`, a test double conforming to the annotated protocol: set each
/// endpoint's answer with `mock<Endpoint> { arguments in … }`; an endpoint without one throws a
/// ``CourierError`` of kind ``CourierError/Kind/unmocked``.
@attached(peer, names: suffixed(Mock))
public macro Mock() = #externalMacro(module: "CourierMacros", type: "MockMacro")

/// A `GET` endpoint at `path`, relative to the provider's base URL.
@attached(peer) public macro GET(_ path: String) = #externalMacro(module: "CourierMacros", type: "MarkerMacro")
/// A `POST` endpoint at `path`.
@attached(peer) public macro POST(_ path: String) = #externalMacro(module: "CourierMacros", type: "MarkerMacro")
/// A `PUT` endpoint at `path`.
@attached(peer) public macro PUT(_ path: String) = #externalMacro(module: "CourierMacros", type: "MarkerMacro")
/// A `PATCH` endpoint at `path`.
@attached(peer) public macro PATCH(_ path: String) = #externalMacro(module: "CourierMacros", type: "MarkerMacro")
/// A `DELETE` endpoint at `path`.
@attached(peer) public macro DELETE(_ path: String) = #externalMacro(module: "CourierMacros", type: "MarkerMacro")
/// An `OPTIONS` endpoint at `path`.
@attached(peer) public macro OPTIONS(_ path: String) = #externalMacro(module: "CourierMacros", type: "MarkerMacro")
/// A `HEAD` endpoint at `path`.
@attached(peer) public macro HEAD(_ path: String) = #externalMacro(module: "CourierMacros", type: "MarkerMacro")
/// A `TRACE` endpoint at `path`.
@attached(peer) public macro TRACE(_ path: String) = #externalMacro(module: "CourierMacros", type: "MarkerMacro")
/// A `CONNECT` endpoint at `path`.
@attached(peer) public macro CONNECT(_ path: String) = #externalMacro(module: "CourierMacros", type: "MarkerMacro")
/// An endpoint with a custom method, such as `@HTTP("/cache/:key", method: "PURGE")`.
@attached(peer) public macro HTTP(_ path: String, method: String) = #externalMacro(module: "CourierMacros", type: "MarkerMacro")
/// ``HTTP(_:method:)`` in Papyrus' other spelling, `@Http(path: "/cache/:key", method: "PURGE")`.
@attached(peer) public macro Http(path: String, method: String) = #externalMacro(module: "CourierMacros", type: "MarkerMacro")

/// Sends the body of an endpoint — or of every endpoint, on the protocol — as
/// `application/x-www-form-urlencoded`, with `encoder` when given.
@attached(peer) public macro URLForm(_ encoder: URLFormEncoder = URLFormEncoder()) = #externalMacro(module: "CourierMacros", type: "MarkerMacro")

/// Sends the body of an endpoint — or of every endpoint, on the protocol — as
/// `multipart/form-data`; every parameter that is not a path value, query item or header must be
/// a ``Part``.
@attached(peer) public macro Multipart() = #externalMacro(module: "CourierMacros", type: "MarkerMacro")

/// Encodes bodies and decodes responses as JSON with the given coders, for an endpoint or, on
/// the protocol, for every endpoint.
@attached(peer) public macro JSON(encoder: JSONEncoder = JSONEncoder(), decoder: JSONDecoder = JSONDecoder()) =
    #externalMacro(module: "CourierMacros", type: "MarkerMacro")

/// Encodes bodies and decodes responses with your own coders.
@attached(peer) public macro Coders(encoder: any BodyEncoder, decoder: any BodyDecoder) =
    #externalMacro(module: "CourierMacros", type: "MarkerMacro")

/// Spells the keys of query items, fields, bodies and responses as `mapping` says, for an
/// endpoint or, on the protocol, for every endpoint.
@attached(peer) public macro KeyMapping(_ mapping: KeyMapping) = #externalMacro(module: "CourierMacros", type: "MarkerMacro")

/// Static headers for an endpoint or, on the protocol, for every endpoint; a function's header
/// replaces the protocol's header of the same name.
@attached(peer) public macro Headers(_ headers: [String: String]) = #externalMacro(module: "CourierMacros", type: "MarkerMacro")

/// A static `Authorization` header for an endpoint or, on the protocol, for every endpoint.
@attached(peer) public macro Authorization(_ value: AuthorizationHeader) = #externalMacro(module: "CourierMacros", type: "MarkerMacro")

/// Bounds the wait of a function's request, or of every request of the protocol, over the
/// provider's ``Provider/timeouts``: `@Timeouts(idle: .seconds(5), total: .seconds(20))`. A
/// function's bounds replace the protocol's one by one.
@attached(peer) public macro Timeouts(connect: Duration? = nil, idle: Duration? = nil, total: Duration? = nil) =
    #externalMacro(module: "CourierMacros", type: "MarkerMacro")

/// Sends a function's request, or every request of the protocol, again after a failure as
/// `policy` says, instead of the provider's ``Provider/retryPolicy``: `@Retry(.standard)`,
/// `@Retry(.disabled)`, `@Retry(RetryPolicy(maxAttempts: 5))`. A function's policy replaces the
/// protocol's.
@attached(peer) public macro Retry(_ policy: RetryPolicy) = #externalMacro(module: "CourierMacros", type: "MarkerMacro")

/// Uses the provider's ``HTTPCache`` for a function's request, or every request of the protocol
/// (or an `@Endpoint` struct's), as `policy` says: `@Cache(.reload)`, `@Cache(.onlyIfCached)`.
/// A function's policy replaces the protocol's.
@attached(peer) public macro Cache(_ policy: CachePolicy) = #externalMacro(module: "CourierMacros", type: "MarkerMacro")

/// Marks an endpoint parameter as the value of the path placeholder of the same name (`:name` or
/// `{name}`). Only needed to be explicit: a parameter named like a placeholder is one already.
public typealias Path<T> = T
/// Marks an endpoint parameter as a query item. Unmarked parameters of `GET`, `HEAD` and
/// `DELETE` endpoints are query items already.
public typealias Query<T> = T
/// Marks an endpoint parameter as a header. Its name is the parameter's key in Capital-Kebab-Case
/// with acronyms kept (`requestID` → `Request-ID`, `xAPIKey` → `X-API-Key`); a key that is not a
/// plain identifier is sent exactly as written (a parameter named `x-api-key` in backticks, say).
public typealias Header<T> = T
/// Marks an endpoint parameter as a cookie sent with the request, in its `Cookie` header beside
/// the provider's cookie jar's. Its name is the parameter's key exactly as written: a parameter
/// `sessionID` whose second name is `session_id` sends the cookie `session_id`. A `nil` value
/// sends none.
public typealias CookieValue<T> = T
/// Marks an endpoint parameter as one field of the body. Unmarked parameters of endpoints other
/// than `GET`, `HEAD` and `DELETE` are fields already.
public typealias Field<T> = T
/// Marks an endpoint parameter as the whole body.
public typealias Body<T> = T
