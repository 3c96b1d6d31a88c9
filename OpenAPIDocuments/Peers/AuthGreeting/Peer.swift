public import Foundation
import HTTPTypes
public import OpenAPIRuntime

/// The server swift-openapi-generator writes for this folder's openapi.yaml (Types.swift,
/// Server.swift), behind a middleware that answers 401 to a request without a bearer token and
/// greets the token's holder when no name is given.
public enum AuthGreetingPeer {
    public static func register(on transport: any ServerTransport, serverURL: URL) throws {
        try Handler().registerHandlers(on: transport, serverURL: serverURL, middlewares: [BearerMiddleware()])
    }
}

enum Caller {
    @TaskLocal static var name: String?
}

struct BearerMiddleware: ServerMiddleware {
    func intercept(
        _ request: HTTPRequest,
        body: HTTPBody?,
        metadata: ServerRequestMetadata,
        operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        guard let value = request.headerFields[.authorization], value.hasPrefix("Bearer "), value.count > 7 else {
            return (HTTPResponse(status: .unauthorized), nil)
        }
        return try await Caller.$name.withValue(String(value.dropFirst(7))) {
            try await next(request, body, metadata)
        }
    }
}

struct Handler: APIProtocol {
    func getGreeting(_ input: Operations.getGreeting.Input) async throws -> Operations.getGreeting.Output {
        .ok(.init(body: .json(.init(message: "Hello, \(input.query.name ?? Caller.name ?? "Stranger")!"))))
    }
}
