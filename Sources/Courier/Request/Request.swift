import Foundation

/// Everything a request is: what to send, how to read the response, and the rules it is sent
/// under — authentication, timeouts, validation, and whether the response streams.
///
/// Every front-end produces one — an `@API` function (`UsersAPI.Requests.getUser(id:)`), an
/// ``Endpoint`` value (`Request(endpoint)`), the fluent steps — and ``Provider/send(_:)->Value`` is the
/// one place any of them is sent. What it puts on the wire, and how it checks and decodes the
/// answer, does not depend on the front-end that made it.
///
/// ```swift
/// let request = Request(.get, "/users/:id", receiving: .json(User.self))
///     .parameter("id", 42)
///     .timeout(.seconds(5))
/// let user = try await provider.send(request)
/// ```
public struct Request<Value>: Sendable {
    /// The parts to send: method, path, parameters, query, headers, body and coders.
    package var builder: RequestBuilder
    /// How the response becomes a `Value`, and the `Accept` header it asks for; `receiving(_:)`
    /// changes it.
    var decoder: ResponseDecoder<Value>
    /// Applied when the request is sent, after every other part, so that no later step can lose
    /// it.
    var authentication: Credentials?
    /// Checks of this request's response, run after the provider's and before decoding.
    var validators: [Validator] = []
    /// Changes to the encoded request, run after the provider's modifiers.
    var adjustments: [Adjustment] = []

    /// A request with the parts of `builder` whose response is read by `decoder`.
    public init(_ builder: RequestBuilder, receiving decoder: ResponseDecoder<Value>) {
        self.builder = builder
        self.decoder = decoder
    }

    /// A request with `method` to `path` (relative to the provider's base URL) whose response is
    /// read by `decoder`.
    public init(_ method: HTTPRequest.Method, _ path: String, receiving decoder: ResponseDecoder<Value>) {
        self.init(RequestBuilder(method: method, path: path), receiving: decoder)
    }

    /// The name in logs, traces and errors: the operation ID, or the method and path.
    var operationID: String { builder.reportedName }
}

/// A named change to an encoded request, made just before it enters the middleware chain.
struct Adjustment: Sendable {
    let name: String
    let apply: @Sendable (inout RawRequest) throws -> Void
}

/// A named response check.
struct Validator: Sendable {
    let name: String
    let check: @Sendable (Response) throws -> Void
}
