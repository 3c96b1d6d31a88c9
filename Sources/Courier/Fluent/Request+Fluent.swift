public import Foundation
#if canImport(FoundationNetworking)
public import FoundationNetworking
#endif

extension Request {
    /// A request with `method` to `path` whose response is read by `decoder`.
    public init(_ method: HTTPRequest.Method, _ path: String, receiving decoder: ResponseDecoder<Value>) {
        self.init(RequestBuilder(method: method, path: path), decode: decoder.decode)
    }

    /// A copy with the change `change` makes to the request; every other part is kept.
    public func modified(_ change: (inout RequestBuilder) -> Void) -> Request {
        var copy = self
        change(&copy.builder)
        return copy
    }

    /// A copy with the value of the `:name` / `{name}` placeholder.
    public func parameter(_ name: String, _ value: some CustomStringConvertible) -> Request {
        modified { $0.addParameter(name, value: value) }
    }

    /// A copy with a query item added (`nil` adds nothing).
    public func query(_ key: String, _ value: some Encodable & Sendable) -> Request {
        modified { $0.addQuery(key, value: value) }
    }

    /// A copy with query items added in order.
    public func query(_ items: KeyValuePairs<String, String>) -> Request {
        modified { request in for (key, value) in items { request.addRawQuery(key, value: value) } }
    }

    /// A copy with `name` set to `value`, replacing earlier values.
    public func header(_ name: HTTPField.Name, _ value: String) -> Request {
        modified { $0.setHeader(name.rawName, value: value) }
    }

    /// A copy with a value of `name` added beside earlier ones.
    public func addingHeader(_ name: HTTPField.Name, _ value: String) -> Request {
        modified { $0.addHeader(name.rawName, value: value) }
    }

    /// A copy whose headers are exactly `fields`, replacing every earlier one.
    public func headers(_ fields: KeyValuePairs<HTTPField.Name, String>) -> Request {
        modified { request in
            request.headers = [:]
            for (name, value) in fields { request.addHeader(name.rawName, value: value) }
        }
    }

    /// A copy without any value of `name`.
    public func removingHeader(_ name: HTTPField.Name) -> Request {
        modified { $0.headers[values: name] = [] }
    }

    /// A copy with the body `provider` writes.
    public func body(_ provider: BodyProvider) -> Request {
        modified { provider.apply(&$0) }
    }

    /// A copy authenticated by `provider` when it is sent.
    public func authenticated(with provider: AuthenticationProvider) -> Request {
        var copy = self
        copy.authentication = provider
        return copy
    }

    /// A copy that fails with ``CourierError/Kind/timeout`` when it takes longer than `timeout`.
    public func timeout(_ timeout: Duration) -> Request {
        var copy = self
        copy.timeout = timeout
        return copy
    }

    /// A copy named `operationID` in logs, traces and errors.
    public func named(_ operationID: String) -> Request {
        modified { $0.operationID = operationID }
    }

    /// A copy whose response is read by `decoder` instead; every other part — authentication and
    /// timeout included — is kept.
    public func receiving<T>(_ decoder: ResponseDecoder<T>) -> Request<T> {
        var request = Request<T>(builder, decode: decoder.decode)
        request.authentication = authentication
        request.timeout = timeout
        return request
    }

    /// The request as it will be sent: the builder with the authentication applied.
    var finalBuilder: RequestBuilder {
        var builder = self.builder
        authentication?.authenticate(&builder)
        return builder
    }
}

extension Request {
    /// The request of an ``Endpoint`` value, to inspect, log or send elsewhere.
    public init<E: Endpoint>(_ endpoint: E) where Value == E.Response, E.Response: Decodable & SendableMetatype {
        self.init(endpoint.makeRequest(), decoding: E.Response.self)
    }

    /// The request of an ``Endpoint`` value with a typed response.
    public init<E: Endpoint>(_ endpoint: E) where Value == E.Response, E.Response: ResponseDecodable {
        self.init(endpoint.makeRequest()) { response, decoder throws(CourierError) in try E.Response(from: response, decoder: decoder) }
    }
}

/// A type that names an API: its base URL and the parts every request to it starts with.
///
/// ```swift
/// enum ExampleAPI: RequestProviding {
///     case development, production
///     var baseURL: URL { URL(string: self == .production ? "https://api.example.com" : "https://dev.example.com")! }
/// }
///
/// let user = try await ExampleAPI.development.send(
///     ExampleAPI.development.get(.json(User.self), from: "/users/:id").parameter("id", 1)
/// )
/// ```
public protocol RequestProviding: Sendable {
    /// The API's base URL.
    var baseURL: URL { get }
    /// The provider requests are sent through; a URLSession provider on ``baseURL`` unless you
    /// give one.
    var provider: Provider { get }
    /// The start of every request; implement it to add parts every request has.
    func request<T>(_ method: HTTPRequest.Method, _ path: String, receiving decoder: ResponseDecoder<T>) -> Request<T>
}

extension RequestProviding {
    public var provider: Provider { Provider(baseURL: baseURL) }

    public func request<T>(_ method: HTTPRequest.Method, _ path: String, receiving decoder: ResponseDecoder<T>) -> Request<T> {
        Request(method, path, receiving: decoder)
    }

    /// `GET path`, read by `decoder`.
    public func get<T>(_ decoder: ResponseDecoder<T>, from path: String) -> Request<T> { request(.get, path, receiving: decoder) }
    /// `GET path`, checking only the status.
    public func get(_ path: String) -> Request<Void> { request(.get, path, receiving: .none) }
    /// `HEAD path`.
    public func head(_ path: String) -> Request<Response> { request(.head, path, receiving: .response) }
    /// `DELETE path`.
    public func delete(_ path: String) -> Request<Void> { request(.delete, path, receiving: .none) }
    /// `POST` of `body` to `path`.
    public func post(_ body: BodyProvider, to path: String) -> Request<Void> { request(.post, path, receiving: .none).body(body) }
    /// `PUT` of `body` to `path`.
    public func put(_ path: String, with body: BodyProvider) -> Request<Void> { request(.put, path, receiving: .none).body(body) }
    /// `PATCH` of `body` to `path`.
    public func patch(_ path: String, with body: BodyProvider) -> Request<Void> { request(.patch, path, receiving: .none).body(body) }
    /// Any method.
    public func request(_ method: HTTPRequest.Method, _ path: String) -> Request<Void> { request(method, path, receiving: .none) }

    /// Sends `request` through ``provider``.
    public func send<T>(_ request: Request<T>) async throws(CourierError) -> T {
        try await provider.send(request)
    }
}

extension Provider {
    /// The request as it would be sent — head and body bytes — without sending it.
    public func httpRequest<T>(for request: Request<T>) async throws(CourierError) -> (HTTPRequest, Data?) {
        var raw = try prepare(request.finalBuilder)
        do {
            let body = try await raw.collectBody()
            return (raw.head, body)
        } catch {
            throw CourierError(.encoding(what: "the body", error), operationID: raw.operationID, request: raw)
        }
    }

    /// The request as a Foundation `URLRequest`, for sending with your own stack.
    public func urlRequest<T>(for request: Request<T>) async throws(CourierError) -> URLRequest {
        let (head, body) = try await httpRequest(for: request)
        guard let base = baseURL, let url = URL(string: base.absoluteString + (head.path ?? "/")) else {
            throw CourierError(.invalidBaseURL(baseURL?.absoluteString ?? ""), operationID: request.builder.operationID)
        }
        var urlRequest = URLRequest(url: url)
        urlRequest.httpMethod = head.method.rawValue
        for field in head.headerFields {
            urlRequest.addValue(field.value, forHTTPHeaderField: field.name.rawName)
        }
        urlRequest.httpBody = body
        if let timeout = request.timeout {
            urlRequest.timeoutInterval = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
        }
        return urlRequest
    }
}
