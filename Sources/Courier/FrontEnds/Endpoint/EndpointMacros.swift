import Foundation

/// Makes a struct an ``Endpoint`` sent with `method` to `path` (placeholders `{name}` or
/// `:name`): its annotated properties become the request's parameters. Without arguments it is
/// a `GET` of `/`, to be changed per value with `@RequestHTTPMethod` and `@RequestPath`.
/// `@URLForm`, `@JSON`, `@Coders`, `@KeyMapping`, `@Headers` and `@Authorization` on the struct
/// apply to its request.
@attached(extension, conformances: Endpoint)
@attached(member, names: named(makeRequest))
public macro Endpoint(_ method: HTTPRequest.Method = .get, _ path: String = "/") =
    #externalMacro(module: "CourierMacros", type: "RequestStructMacro")

/// Makes a struct an ``Endpoint`` sent with a method given by name, such as `"PURGE"`.
@attached(extension, conformances: Endpoint)
@attached(member, names: named(makeRequest))
public macro Endpoint(_ method: String, _ path: String) =
    #externalMacro(module: "CourierMacros", type: "RequestStructMacro")

/// The value of the path placeholder named like the property, or `name`. Declare it
/// non-optional: the macro warns about an optional, whose `nil` fails the request when it is sent
/// (never the text "nil").
@attached(peer) public macro PathParameter(name: String? = nil) = #externalMacro(module: "CourierMacros", type: "MarkerMacro")
/// A query item named like the property, or `name`; `nil` is left out, arrays repeat the key.
@attached(peer) public macro QueryItem(name: String? = nil) = #externalMacro(module: "CourierMacros", type: "MarkerMacro")
/// A key-only query item (`?verbose`), present when the `Bool` (or `Bool?`) is `true`, absent
/// otherwise.
@attached(peer) public macro QueryFlag(name: String? = nil) = #externalMacro(module: "CourierMacros", type: "MarkerMacro")
/// A `[String: String]` of query items, sent in key order.
@attached(peer) public macro QueryItems() = #externalMacro(module: "CourierMacros", type: "MarkerMacro")
/// A header named like the property in Capital-Kebab-Case (`requestID` → `Request-ID`), or
/// `name` exactly; `nil` is left out.
@attached(peer) public macro RequestHeader(name: String? = nil) = #externalMacro(module: "CourierMacros", type: "MarkerMacro")
/// A `[String: String]` of headers.
@attached(peer) public macro RequestHeaders() = #externalMacro(module: "CourierMacros", type: "MarkerMacro")
/// `[Cookie]` sent in the `Cookie` header.
@attached(peer) public macro RequestCookies() = #externalMacro(module: "CourierMacros", type: "MarkerMacro")
/// The body: JSON for `Encodable` values unless `format` says otherwise, text for `String`, raw
/// bytes for `Data`, a stream for `HTTPBody`.
@attached(peer) public macro RequestBody(_ format: BodyFormat? = nil) = #externalMacro(module: "CourierMacros", type: "MarkerMacro")
/// One field of the body, named like the property or `name`.
@attached(peer) public macro BodyField(name: String? = nil) = #externalMacro(module: "CourierMacros", type: "MarkerMacro")
/// A query item for `GET`, `HEAD` and `DELETE`, a body field for other methods.
@attached(peer) public macro Param(name: String? = nil) = #externalMacro(module: "CourierMacros", type: "MarkerMacro")
/// A URL that replaces the provider's base URL and the path for this request, when not `nil`.
@attached(peer) public macro AbsoluteURL() = #externalMacro(module: "CourierMacros", type: "MarkerMacro")

/// The request's method, set per value (`var method: HTTPRequest.Method = .post`); it replaces
/// the one `@Endpoint` names.
@attached(peer) public macro RequestHTTPMethod() = #externalMacro(module: "CourierMacros", type: "MarkerMacro")
/// The request's path template relative to the base URL, set per value; it replaces the one
/// `@Endpoint` names, and its placeholders are filled by `@PathParameter`s.
@attached(peer) public macro RequestPath() = #externalMacro(module: "CourierMacros", type: "MarkerMacro")

/// Makes a struct a ``ResponseDecodable`` that reads each annotated property from the response,
/// bodies in `format` (JSON unless given).
@attached(extension, conformances: ResponseDecodable, names: named(init(from:decoder:)), named(acceptedContentType))
public macro EndpointResponse(format: BodyFormat? = nil) = #externalMacro(module: "CourierMacros", type: "ResponseStructMacro")

/// The body, decoded for 2xx and 3xx statuses (or those of `status`, `statuses`, `strategy`);
/// `nil` for other statuses and empty bodies when optional.
@attached(peer) public macro ResponseBody(status: Int? = nil, statuses: (any Sequence<Int>)? = nil, strategy: (any ResponseStatusStrategy.Type)? = nil) =
    #externalMacro(module: "CourierMacros", type: "MarkerMacro")
/// The error body, decoded for statuses of 400 and above (or those given); never set together
/// with a `@ResponseBody` of the default filters. Declare it optional: it is `nil` on success.
@attached(peer) public macro ResponseErrorBody(status: Int? = nil, statuses: (any Sequence<Int>)? = nil, strategy: (any ResponseStatusStrategy.Type)? = nil) =
    #externalMacro(module: "CourierMacros", type: "MarkerMacro")
/// A header named like the property in Capital-Kebab-Case (`contentType` → `Content-Type`), or
/// `name`, read case-insensitively as the property's ``HeaderValue`` type; required unless
/// optional.
@attached(peer) public macro ResponseHeader(name: String? = nil) = #externalMacro(module: "CourierMacros", type: "MarkerMacro")
/// The status code.
@attached(peer) public macro ResponseStatusCode() = #externalMacro(module: "CourierMacros", type: "MarkerMacro")
/// The cookies of the `Set-Cookie` headers, as `[Cookie]`.
@attached(peer) public macro ResponseCookies() = #externalMacro(module: "CourierMacros", type: "MarkerMacro")
/// Another ``ResponseDecodable`` read from the same response, such as the page inside a paging
/// wrapper.
@attached(peer) public macro NestedResponse() = #externalMacro(module: "CourierMacros", type: "MarkerMacro")
