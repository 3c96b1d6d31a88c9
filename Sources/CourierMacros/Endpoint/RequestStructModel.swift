import SwiftSyntax

/// A struct annotated with `@Endpoint`, as parsed from its syntax.
struct RequestStructModel {
    var typeName: String
    /// `public ` or `package ` when the struct has that access, otherwise empty.
    var access: String
    /// The method as code: `.post` or a string literal.
    var method: String
    /// Whether ``method`` is a method's name, a `String` such as `"PURGE"`, rather than an
    /// `HTTPRequest.Method`.
    var methodIsName: Bool { method.hasPrefix("\"") }
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
    /// Whether the type is written as an optional.
    var isOptional = false
    /// Where the property is declared: the generated line that uses it is placed there, so that
    /// the compiler reports a type the line cannot take on the property.
    var declaration: Syntax? = nil
    /// `#sourceLocation(file:line:)` of ``declaration``, filled in by the macro.
    var sourceLocation: String? = nil
}

/// The property attributes of a request struct.
enum RequestMarker: String, PropertyMarker {
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

extension RequestMarker {
    var requiredType: RequiredType? {
        switch self {
        case .queryFlag: RequiredType(spelling: "Bool", allowsOptional: true)
        case .queryItems, .requestHeaders: RequiredType(spelling: "[String: String]", allowsOptional: true)
        case .requestCookies: RequiredType(spelling: "[Cookie]", allowsOptional: false)
        case .absoluteURL: RequiredType(spelling: "URL", allowsOptional: true)
        case .method: RequiredType(spelling: "HTTPRequest.Method", allowsOptional: false)
        case .path: RequiredType(spelling: "String", allowsOptional: false)
        case .pathParameter, .queryItem, .requestHeader, .requestBody, .bodyField, .param: nil
        }
    }
}
