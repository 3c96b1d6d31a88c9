import SwiftSyntax

/// A struct annotated with `@EndpointResponse`, as parsed from its syntax.
struct ResponseStructModel {
    var typeName: String
    /// `public ` or `package ` when the struct has that access, otherwise empty.
    var access: String
    /// The `format:` expression, when given.
    var format: String?
    var properties: [ResponsePropertyModel]

    /// Whether a property reads the error body, so that a failing status is not thrown.
    var hasErrorBody: Bool { properties.contains { $0.kind == .errorBody } }
}

/// One annotated property and where in the response it is read from.
struct ResponsePropertyModel {
    var kind: ResponseMarker
    var name: String
    var isOptional: Bool
    /// The type without its optional.
    var wrappedType: String
    /// The status filter expression of a body, the header name of a header.
    var detail: String?
    /// `#sourceLocation(file:line:)` of the property's declaration, filled in by the macro, so
    /// that the compiler reports a type the response cannot be read as on the property.
    var sourceLocation: String? = nil
    var declaration: Syntax? = nil
}

/// The property attributes of a response struct.
enum ResponseMarker: String, PropertyMarker {
    case body = "ResponseBody"
    case errorBody = "ResponseErrorBody"
    case header = "ResponseHeader"
    case statusCode = "ResponseStatusCode"
    case cookies = "ResponseCookies"
    case nested = "NestedResponse"
}

extension ResponseMarker {
    var requiredType: RequiredType? {
        switch self {
        case .statusCode: RequiredType(spelling: "Int", allowsOptional: true)
        case .cookies: RequiredType(spelling: "[Cookie]", allowsOptional: true)
        case .body, .errorBody, .header, .nested: nil
        }
    }
}
