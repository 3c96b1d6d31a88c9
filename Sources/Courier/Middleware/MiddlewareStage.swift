import CourierWire
import Foundation
import HTTPTypes
import OpenAPIRuntime

/// What a stage of the middleware chain is handed to send a request on: the rest of the chain,
/// ending at the transport.
typealias MiddlewareNext = @Sendable (RawRequest) async throws -> Reply

/// A middleware that runs with the call's own request and reply rather than
/// swift-openapi-runtime's parts, as an ``Interceptor`` does: it sees the request as the pipeline
/// carries it (its operation, its attempt, whether its response streams), a body the transport
/// may already have read whole, and is told of the answers the cache gives without sending.
protocol CallAwareMiddleware: ClientMiddleware {
    /// Runs around `request`, reading at most `bodyLimit` bytes of a body it reads whole.
    nonisolated(nonsending) func run(_ request: RawRequest, bodyLimit: Int, next: MiddlewareNext) async throws -> Reply
    /// Told of `request`, which the provider's cache answered with `status` without sending it.
    func answeredFromCache(_ request: RawRequest, status: Int, outcome: CacheOutcome) async
}

/// A middleware as the exchange runs it, its capability and name found once, when it is added
/// to the provider, as a transport's are when it is bound: the exchange casts nothing per request.
struct MiddlewareStage: Sendable {
    let middleware: any ClientMiddleware
    /// The middleware itself, when it runs with the call's own request and reply.
    let callAware: (any CallAwareMiddleware)?
    /// The name its errors are blamed on.
    let name: String

    init(_ middleware: any ClientMiddleware) {
        self.middleware = middleware
        callAware = middleware as? any CallAwareMiddleware
        name = stageName(of: middleware)
    }

    /// Runs the stage around `request`, `next` sending it on.
    nonisolated(nonsending) func run(_ request: RawRequest, bodyLimit: Int, next: MiddlewareNext) async throws -> Reply {
        if let callAware { return try await callAware.run(request, bodyLimit: bodyLimit, next: next) }
        let (head, body) = try await middleware.intercept(
            request.head, body: request.body, baseURL: request.baseURL, operationID: request.operationID
        ) { head, body, baseURL in
            // What the middleware cannot change (the operation, the attempt, whether the
            // response streams) goes on as the pipeline set it.
            var forwarded = request
            forwarded.head = head
            forwarded.body = body
            forwarded.baseURL = baseURL
            let reply = try await next(forwarded)
            return (reply.head.message, reply.body.httpBody)
        }
        return Reply(head: ResponseHead(head), body: .stream(body), request: request)
    }
}
