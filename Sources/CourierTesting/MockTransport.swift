import Courier
public import Foundation
public import HTTPTypes
public import OpenAPIRuntime

/// A transport for tests: answers from stubs matched by method and path, or from a closure, and
/// records every request it receives.
///
/// ```swift
/// let mock = MockTransport()
/// mock.stub(.get, "/users/:id") { request in
///     try .json(User(id: Int(request.parameters["id"] ?? "") ?? 0, name: "Ada"))
/// }
/// let users = UsersAPI(provider: Provider(baseURL: "https://api.test", transport: mock))
/// _ = try await users.getUser(id: 7)
/// #expect(mock.requests.first?.path == "/users/7")
/// ```
public final class MockTransport: ClientTransport {
    /// Produces a response for a request.
    typealias Handler = @Sendable (RecordedRequest) async throws -> MockResponse

    struct Stub {
        var method: HTTPRequest.Method?
        var route: Route
        var handler: Handler
    }

    struct State {
        var stubs: [Stub] = []
        var requests: [RecordedRequest] = []
    }

    private let state = Locked(State())
    private let fallback: Handler?

    /// A transport that answers every request not matched by a stub with `handler`; without
    /// one, an unmatched request throws `CourierError.Kind.unmocked`.
    public init(handler: (@Sendable (RecordedRequest) async throws -> MockResponse)? = nil) { fallback = handler }

    /// Answers requests with `method` whose path matches `route` (`/users/:id`, `*` for any one
    /// segment) using `handler`. Later stubs win over earlier ones for the same request.
    public func stub(
        _ method: HTTPRequest.Method? = nil,
        _ route: String,
        handler: @escaping @Sendable (RecordedRequest) async throws -> MockResponse
    ) {
        let stub = Stub(method: method, route: Route(route), handler: handler)
        state.withLock { $0.stubs.append(stub) }
    }

    /// Every request received so far, in order.
    public var requests: [RecordedRequest] { state.withLock { $0.requests } }

    /// Forgets the requests received so far, keeping the stubs: ``requests`` then holds only
    /// those that come after.
    public func clearRequests() {
        state.withLock { $0.requests.removeAll() }
    }

    /// Records `request` and its body, then answers from the latest matching stub, else the fallback
    /// handler, else throws `CourierError.unmocked`; a response body without `Content-Length` gets one.
    public func send(
        _ request: HTTPRequest,
        body: HTTPBody?,
        baseURL: URL,
        operationID: String
    ) async throws -> (HTTPResponse, HTTPBody?) {
        let data: Data? =
            if let body { try await Data(collecting: body, upTo: .max) } else { nil }
        var recorded = RecordedRequest(head: request, body: data, baseURL: baseURL, operationID: operationID)
        let match: (Stub, [String: String])? = state.withLock { state in
            state.requests.append(recorded)
            for stub in state.stubs.reversed() where stub.method == nil || stub.method == request.method {
                if let parameters = stub.route.match(recorded.path) { return (stub, parameters) }
            }
            return nil
        }
        let handler: Handler
        if let (stub, parameters) = match {
            recorded.parameters = parameters
            handler = stub.handler
        } else if let fallback {
            handler = fallback
        } else {
            let routes = state.withLock { $0.stubs.map { "\($0.method?.rawValue ?? "*") \($0.route.template)" } }
            throw CourierError.unmocked(
                operationID,
                detail: "no stub matches \(request.method) \(recorded.path); stubs: \(routes.isEmpty ? "none" : routes.joined(separator: ", "))"
            )
        }
        let response = try await handler(recorded)
        var head = HTTPResponse(status: response.status, headerFields: response.headers)
        if let body = response.body, head.headerFields[.contentLength] == nil {
            head.headerFields[.contentLength] = String(body.count)
        }
        return (head, response.body.map { HTTPBody($0) })
    }
}

/// A path pattern: literal segments, `:name` segments that capture, `*` for any one segment.
struct Route: Sendable {
    let template: String
    let segments: [Substring]

    init(_ template: String) {
        self.template = template
        self.segments = template.split(separator: "/")
    }

    func match(_ path: String) -> [String: String]? {
        let parts = path.split(separator: "/")
        guard parts.count == segments.count else { return nil }
        var parameters: [String: String] = [:]
        for (pattern, part) in zip(segments, parts) {
            if pattern == "*" { continue }
            if pattern.first == ":" {
                parameters[String(pattern.dropFirst())] = String(part).removingPercentEncoding ?? String(part)
            } else if pattern != part {
                return nil
            }
        }
        return parameters
    }
}
