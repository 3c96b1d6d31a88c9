import Foundation
import HTTPTypes
import OpenAPIRuntime

/// Changes a request before it is encoded: add a header, a query item, a field.
public protocol RequestModifier: Sendable {
    /// Changes `req`; a thrown error fails the request as ``CourierError/Kind/modifier``.
    func modify(req: inout RequestBuilder) throws
}

/// Runs around a request: sees the request as it will be sent and the response as it arrived,
/// and may change either. Call `next` to continue.
public protocol Interceptor: Sendable {
    /// Handles `req`, calling `next` to send it on.
    func intercept(req: RawRequest, next: Next) async throws -> Response
}

extension Interceptor {
    /// Sends a request on to the rest of the chain.
    public typealias Next = @Sendable (RawRequest) async throws -> Response
}

struct ClosureModifier: RequestModifier, StageNamed {
    let action: @Sendable (inout RequestBuilder) throws -> Void
    let name: String
    func modify(req: inout RequestBuilder) throws { try action(&req) }
    var stageName: String { name }
}

struct ClosureInterceptor: Interceptor {
    let action: @Sendable (RawRequest, Next) async throws -> Response
    func intercept(req: RawRequest, next: Next) async throws -> Response { try await action(req, next) }
}

/// A name for a stage of the pipeline, used when it throws.
protocol StageNamed {
    var stageName: String { get }
}

func stageName(of stage: Any) -> String {
    (stage as? any StageNamed)?.stageName ?? String(reflecting: type(of: stage))
}

/// Runs an ``Interceptor`` as a `ClientMiddleware`, reading the response body into memory so
/// that the interceptor sees a complete ``Response`` — unless the request streams its response,
/// which then passes through unread.
struct InterceptorMiddleware: ClientMiddleware, StageNamed {
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
        try await intercept(RawRequest(head: request, body: body, baseURL: baseURL, operationID: operationID), bodyLimit: Provider.defaultBodyLimit, next: next)
    }

    func intercept(
        _ raw: RawRequest,
        bodyLimit: Int,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        let response = try await interceptor.intercept(req: raw) { req in
            let (head, body) = try await next(req.head, req.body, req.baseURL)
            guard !req.streamsResponse else {
                var response = Response(head: head, body: nil, request: req)
                response.passthroughBody = body
                return response
            }
            let data = try await collectResponseBody(body, limit: bodyLimit)
            return Response(head: head, body: data, request: req)
        }
        if let passthrough = response.passthroughBody { return (response.head, passthrough) }
        return (response.head, response.body.map { HTTPBody($0) })
    }
}

/// Reads a response body into memory, failing with a transport error past `limit` bytes.
func collectResponseBody(_ body: HTTPBody?, limit: Int) async throws(CourierError) -> Data? {
    guard let body else { return nil }
    if case .known(let length) = body.length, length > limit {
        throw CourierError(.responseTooLarge(limit: limit))
    }
    var data = Data()
    do {
        for try await chunk in body {
            guard data.count + chunk.count <= limit else { throw CourierError(.responseTooLarge(limit: limit)) }
            data.append(contentsOf: chunk)
        }
    } catch let error as CourierError {
        throw error
    } catch {
        throw PipelineErrors.classifyTransport(error)
    }
    return data
}
