import CourierWire
import Foundation
import HTTPTypes
import OpenAPIRuntime

/// Runs around a request: sees the request as it will be sent and the response as it arrived,
/// and may change either. Call `next` to continue.
public protocol Interceptor: Sendable {
    /// Handles `req`, calling `next` to send it on.
    func intercept(req: RawRequest, next: Next) async throws -> Response

    /// Told of `req`, which the provider's ``HTTPCache`` answered with `status` without sending
    /// it, so that ``intercept(req:next:)`` never saw it; `outcome` says how fresh the answer
    /// was. Does nothing unless you implement it (``CURLLogger`` logs such requests).
    func answeredFromCache(_ req: RawRequest, status: Int, outcome: CacheOutcome) async
}

extension Interceptor {
    /// Sends a request on to the rest of the chain.
    public typealias Next = @Sendable (RawRequest) async throws -> Response

    /// Does nothing: an interceptor that implements no such hook is not told.
    public func answeredFromCache(_ req: RawRequest, status: Int, outcome: CacheOutcome) async {}
}

struct ClosureInterceptor: Interceptor {
    let action: @Sendable (RawRequest, Next) async throws -> Response
    func intercept(req: RawRequest, next: Next) async throws -> Response { try await action(req, next) }
}

/// Runs an ``Interceptor`` in the middleware chain. In a provider's chain it runs with the call's
/// own request and reply: it reads the response body into memory, unless the transport already
/// did, so that the interceptor sees a complete ``Response`` — unless the request streams its
/// response, which then passes through unread — and an interceptor further out gets that
/// response's bytes as they are, not read again.
struct InterceptorMiddleware: CallAwareMiddleware, StageNamed {
    let interceptor: any Interceptor
    let stageName: String

    init(_ interceptor: any Interceptor, name: String? = nil) {
        self.interceptor = interceptor
        self.stageName = name ?? "interceptor " + String(reflecting: type(of: interceptor))
    }

    /// Used when the interceptor runs in another client's chain, where nothing streams.
    func intercept(
        _ request: HTTPRequest,
        body: HTTPBody?,
        baseURL: URL,
        operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        let raw = RawRequest(head: request, body: body, baseURL: baseURL, operationID: operationID)
        let reply = try await run(raw, bodyLimit: Provider.defaultBodyLimit) { req in
            let (head, body) = try await next(req.head, req.body, req.baseURL)
            return Reply(head: ResponseHead(head), body: .stream(body), request: req)
        }
        return (reply.head.message, reply.body.httpBody)
    }

    nonisolated(nonsending) func run(_ raw: RawRequest, bodyLimit: Int, next: MiddlewareNext) async throws -> Reply {
        let response = try await interceptor.intercept(req: raw) { req in
            // The operation, the attempt and whether the response streams are the pipeline's.
            var req = req
            req.operationID = raw.operationID
            req.streamsResponse = raw.streamsResponse
            req.attempt = raw.attempt
            let reply = try await next(req)
            guard !raw.streamsResponse else {
                var response = Response(received: reply.head, body: nil, request: req, cache: nil)
                response.passthroughBody = reply.body.httpBody
                return response
            }
            let data: Data? = switch reply.body {
            case .whole(let data): data
            case .stream(let body): try await collectResponseBody(body, limit: bodyLimit, status: reply.head.status)
            }
            return Response(received: reply.head, body: data, request: req, cache: nil)
        }
        if response.body == nil, let passthrough = response.passthroughBody {
            return Reply(head: response.received, body: .stream(passthrough), request: raw)
        }
        return Reply(head: response.received, body: .whole(response.body), request: raw)
    }

    func answeredFromCache(_ request: RawRequest, status: Int, outcome: CacheOutcome) async {
        await interceptor.answeredFromCache(request, status: status, outcome: outcome)
    }
}
