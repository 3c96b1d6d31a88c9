/// A protocol annotated with `@API`, as parsed from its syntax.
struct APIModel {
    var name: String
    var accessModifier: String?
    var endpoints: [EndpointModel]
}

/// One function of the protocol.
struct EndpointModel {
    var name: String
    var method: String
    var path: String
    /// The function's declaration as written, attributes removed, to reproduce its signature.
    var signature: String
    var parameters: [ParameterModel]
    var returnType: String?
    /// The expression of the body encoder chosen by `@URLForm`, if any.
    var bodyEncoder: String?
}

/// One parameter of an endpoint and what it becomes in the request.
struct ParameterModel {
    enum Role: Equatable {
        case path
        case query
        case header(name: String)
        case field
        case body
    }
    /// The name used in the function's body.
    var name: String
    /// The key of the item in the request (placeholder, query key, field key).
    var key: String
    var role: Role
}
