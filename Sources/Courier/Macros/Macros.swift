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

/// A `GET` endpoint at `path`, relative to the provider's base URL.
@attached(peer) public macro GET(_ path: String) = #externalMacro(module: "CourierMacros", type: "EndpointMacro")
/// A `POST` endpoint at `path`.
@attached(peer) public macro POST(_ path: String) = #externalMacro(module: "CourierMacros", type: "EndpointMacro")
/// A `PUT` endpoint at `path`.
@attached(peer) public macro PUT(_ path: String) = #externalMacro(module: "CourierMacros", type: "EndpointMacro")
/// A `PATCH` endpoint at `path`.
@attached(peer) public macro PATCH(_ path: String) = #externalMacro(module: "CourierMacros", type: "EndpointMacro")
/// A `DELETE` endpoint at `path`.
@attached(peer) public macro DELETE(_ path: String) = #externalMacro(module: "CourierMacros", type: "EndpointMacro")
/// An `OPTIONS` endpoint at `path`.
@attached(peer) public macro OPTIONS(_ path: String) = #externalMacro(module: "CourierMacros", type: "EndpointMacro")
/// A `HEAD` endpoint at `path`.
@attached(peer) public macro HEAD(_ path: String) = #externalMacro(module: "CourierMacros", type: "EndpointMacro")
/// A `TRACE` endpoint at `path`.
@attached(peer) public macro TRACE(_ path: String) = #externalMacro(module: "CourierMacros", type: "EndpointMacro")
/// A `CONNECT` endpoint at `path`.
@attached(peer) public macro CONNECT(_ path: String) = #externalMacro(module: "CourierMacros", type: "EndpointMacro")
/// An endpoint with a custom method, such as `@HTTP("/cache/:key", method: "PURGE")`.
@attached(peer) public macro HTTP(_ path: String, method: String) = #externalMacro(module: "CourierMacros", type: "EndpointMacro")

/// Sends the body of an endpoint — or of every endpoint, on the protocol — as
/// `application/x-www-form-urlencoded`, with `encoder` when given.
@attached(peer) public macro URLForm(_ encoder: URLFormEncoder = URLFormEncoder()) = #externalMacro(module: "CourierMacros", type: "EndpointMacro")

/// Marks an endpoint parameter as the value of the path placeholder of the same name (`:name` or
/// `{name}`). Only needed to be explicit: a parameter named like a placeholder is one already.
public typealias Path<T> = T
/// Marks an endpoint parameter as a query item. Unmarked parameters of `GET`, `HEAD` and
/// `DELETE` endpoints are query items already.
public typealias Query<T> = T
/// Marks an endpoint parameter as a header; its name is the parameter's in Capital-Kebab-Case
/// (`requestID` → `Request-ID`).
public typealias Header<T> = T
/// Marks an endpoint parameter as one field of the body. Unmarked parameters of endpoints other
/// than `GET`, `HEAD` and `DELETE` are fields already.
public typealias Field<T> = T
/// Marks an endpoint parameter as the whole body.
public typealias Body<T> = T
