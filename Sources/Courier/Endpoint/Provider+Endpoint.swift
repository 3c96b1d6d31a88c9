import Foundation

extension Provider {
    /// Sends `endpoint` and decodes a successful response body into its `Response`.
    public func send<E: Endpoint>(_ endpoint: E) async throws(CourierError) -> E.Response
    where E.Response: Decodable & SendableMetatype {
        var builder = endpoint.makeRequest()
        if builder.headers[.accept] == nil { builder.headers[.accept] = "application/json" }
        return try await send(Request(builder, decoding: E.Response.self), validating: endpoint.validate)
    }

    /// Sends `endpoint` and lets its `Response` read status, headers, cookies and body.
    public func send<E: Endpoint>(_ endpoint: E) async throws(CourierError) -> E.Response
    where E.Response: ResponseDecodable {
        var builder = endpoint.makeRequest()
        if builder.headers[.accept] == nil, let accept = E.Response.acceptedContentType { builder.headers[.accept] = accept }
        let request = Request<E.Response>(builder) { response, decoder throws(CourierError) in
            try E.Response(from: response, decoder: decoder)
        }
        return try await send(request, validating: endpoint.validate)
    }

    /// Sends `endpoint` and returns the response as it is, whatever its status.
    public func send<E: Endpoint>(_ endpoint: E) async throws(CourierError) -> Response where E.Response == Response {
        try await send(Request(endpoint.makeRequest(), decoding: Response.self), validating: endpoint.validate)
    }

    /// Sends `endpoint` on a new task and reports the result to `completion`.
    public func send<E: Endpoint>(_ endpoint: E, completion: @escaping (Result<E.Response, CourierError>) -> Void)
    where E.Response: Decodable & SendableMetatype {
        deliver(completion) { () async throws(CourierError) in try await self.send(endpoint) }
    }

    /// Sends `endpoint` on a new task and reports the result to `completion`.
    public func send<E: Endpoint>(_ endpoint: E, completion: @escaping (Result<E.Response, CourierError>) -> Void)
    where E.Response: ResponseDecodable {
        deliver(completion) { () async throws(CourierError) in try await self.send(endpoint) }
    }

    /// A copy that checks every response with `validator` before it is decoded; a thrown error
    /// fails the call as ``CourierError/Kind/validation``, the error kept as its underlying error.
    public func validate(
        fileID: String = #fileID,
        line: Int = #line,
        _ validator: @escaping @Sendable (Response) throws -> Void
    ) -> Provider {
        var copy = self
        copy.validators.append(Validator(name: "validator at \(fileID):\(line)", check: validator))
        return copy
    }
}

/// A named response check of a provider.
struct Validator: Sendable {
    let name: String
    let check: @Sendable (Response) throws -> Void
}
