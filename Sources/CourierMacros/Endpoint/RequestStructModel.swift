/// A struct annotated with `@Endpoint`, as parsed from its syntax.
struct RequestStructModel {
    var typeName: String
    /// `public ` or `package ` when the struct has that access, otherwise empty.
    var access: String
    /// The method as code: `.post` or a string literal.
    var method: String
    var path: String
    /// Options from the struct's attributes: `@URLForm`, `@JSON`, `@Headers`, `@KeyMapping`…
    var options: [EndpointOption]
    var properties: [RequestPropertyModel]
}

/// One annotated property and what it becomes in the request.
struct RequestPropertyModel {
    var kind: RequestMarker
    /// The property's name in code.
    var name: String
    /// The item's key in the request: the placeholder, query key, field or header name.
    var key: String
    /// `@RequestBody`'s format expression, when given.
    var format: String?
}

/// The property attributes of a request struct.
enum RequestMarker: String {
    case pathParameter = "PathParameter"
    case queryItem = "QueryItem"
    case queryFlag = "QueryFlag"
    case queryItems = "QueryItems"
    case requestHeader = "RequestHeader"
    case requestHeaders = "RequestHeaders"
    case requestCookies = "RequestCookies"
    case requestBody = "RequestBody"
    case bodyField = "BodyField"
    case param = "Param"
    case absoluteURL = "AbsoluteURL"
    case method = "RequestHTTPMethod"
    case path = "RequestPath"
}
