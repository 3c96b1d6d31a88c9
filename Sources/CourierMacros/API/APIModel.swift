/// A protocol annotated with `@API` or `@Mock`, as parsed from its syntax.
struct APIModel {
    var name: String
    var accessModifier: String?
    /// The protocol's doc comment, `///` lines as written.
    var documentation: [String]
    var endpoints: [EndpointModel]
}

/// One function of the protocol.
struct EndpointModel {
    var name: String
    var method: String
    var path: String
    var documentation: [String]
    /// The function's declaration as written, attributes and doc comment removed.
    var signature: String
    var parameters: [ParameterModel]
    /// The return type as written; `nil` for none or `Void`.
    var returnType: String?
    /// The completion handler, when the endpoint reports through one.
    var completion: CompletionModel?
    /// `throws(CourierError)` and the like, as written; `nil` for plain `throws`.
    var typedThrows: String?
    /// Options from the protocol's attributes, then the function's.
    var options: [EndpointOption]
    /// `getUser(id:)`, for messages.
    var selector: String
    /// `getUser(id: Int)`: names the endpoint uniquely among overloads.
    var key: String
    /// Parameter types in order, for the mock's handler type.
    var parameterTypes: [String]
    /// The parameters without the completion handler, as written (`id postId: Int`).
    var requestParameters: [String] = []
    /// The argument labels of those parameters (`_` for none).
    var requestLabels: [String] = []
}

/// A last parameter `@escaping (Result<T, Error>) -> Void` or `@escaping (Response) -> Void`.
struct CompletionModel {
    enum Kind {
        case result(valueType: String)
        case response
    }
    var parameterName: String
    var kind: Kind
}

/// Something an attribute asks of every request of an endpoint, in the order it applies.
enum EndpointOption {
    case header(name: String, value: String)
    case headers(expression: String)
    case authorization(expression: String)
    case json(encoder: String?, decoder: String?)
    case bodyEncoder(expression: String)
    case bodyDecoder(expression: String)
    case keyMapping(expression: String)
    /// One bound of the request's timeouts: `connect`, `idle` or `total`.
    case timeout(bound: String, expression: String)
    /// The request's retry policy.
    case retry(expression: String)
    /// How the request uses the provider's cache.
    case cache(expression: String)
}

/// One parameter of an endpoint and what it becomes in the request.
struct ParameterModel {
    enum Role: Equatable {
        case path
        case query
        case header(name: String)
        case cookie(name: String)
        case field
        case body
        case part
        case completion
    }
    /// The name used in the function's body.
    var name: String
    /// The key of the item in the request (placeholder, query key, field key).
    var key: String
    var role: Role
}
