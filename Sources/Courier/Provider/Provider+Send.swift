public import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPTypes
import OpenAPIRuntime

extension Provider {
    /// Sends `request` and decodes its response.
    public func send<Value>(_ request: Request<Value>) async throws(CourierError) -> Value {
        try await send(request, validating: nil)
    }

    /// Sends `request`, runs the provider's validators and then `validate` on the response, and
    /// decodes it.
    func send<Value>(
        _ request: Request<Value>,
        validating validate: (@Sendable (Response) throws -> Void)?
    ) async throws(CourierError) -> Value {
        let builder = request.finalBuilder
        let operationID = builder.operationID ?? "\(builder.method) \(builder.path)"
        let raw = try prepare(builder, operationID: operationID)
        let response = try await execute(raw, timeout: request.timeout)
        for validator in validators {
            do {
                try validator.check(response)
            } catch {
                throw CourierError(.validation(stage: validator.name, error), operationID: operationID, request: raw, response: response)
            }
        }
        if let validate {
            do {
                try validate(response)
            } catch {
                throw CourierError(.validation(stage: "the validation of \(operationID)", error), operationID: operationID, request: raw, response: response)
            }
        }
        let decoder: any ResponseBodyDecoder
        if builder.responseDecoder == nil && builder.keyMapping == nil {
            decoder = mappedDecoder
        } else {
            let mapping = builder.keyMapping ?? keyMapping
            let base = builder.responseDecoder ?? responseDecoder
            decoder = mapping.isDefault ? base : base.with(keyMapping: mapping)
        }
        do {
            return try request.decode(response, decoder)
        } catch {
            throw error.with(operationID: operationID, request: raw)
        }
    }

    /// Applies the modifiers and encodes `builder` into the request the chain receives, without
    /// sending it.
    public func prepare(_ builder: RequestBuilder, operationID: String? = nil) throws(CourierError) -> RawRequest {
        let operationID = operationID ?? builder.operationID ?? "\(builder.method) \(builder.path)"
        var builder = builder
        for modifier in modifiers {
            do {
                try modifier.modify(req: &builder)
            } catch let error as CourierError {
                throw error.with(operationID: operationID, request: nil)
            } catch {
                throw CourierError(.modifier(stage: stageName(of: modifier), error), operationID: operationID)
            }
        }
        var baseURL: URL
        switch base {
        case .success(let url): baseURL = url
        case .failure(let error): throw error.with(operationID: operationID, request: nil)
        }
        if let absolute = builder.absoluteURL {
            // The absolute URL's origin replaces the base URL; its path and query the template.
            guard let scheme = absolute.scheme, let host = absolute.host,
                let origin = URL(string: "\(scheme)://\(host)\(absolute.port.map { ":\($0)" } ?? "")")
            else {
                throw CourierError(.invalidBaseURL(absolute.absoluteString), operationID: operationID)
            }
            baseURL = origin
            let components = URLComponents(url: absolute, resolvingAgainstBaseURL: false)
            builder.path = (components?.percentEncodedPath ?? "/") + (components?.percentEncodedQuery.map { "?" + $0 } ?? "")
        }
        let settings = BuildSettings(
            keyMapping: keyMapping,
            bodyEncoder: bodyEncoder,
            mappedBodyEncoder: mappedEncoder,
            queryArrayEncoding: queryArrayEncoding
        )
        do {
            return try builder.build(baseURL: baseURL, operationID: operationID, settings: settings)
        } catch {
            throw error.with(operationID: operationID, request: nil)
        }
    }

    /// Runs `request` through the middleware chain and the transport, and reads the response.
    /// The status is not checked: a 404 is returned, not thrown.
    public func execute(_ request: RawRequest) async throws(CourierError) -> Response {
        let (head, body) = try await executeStreaming(request)
        do {
            let data = try await collectResponseBody(body, limit: responseBodyLimit)
            return Response(head: head, body: data, request: request)
        } catch {
            throw error.with(operationID: request.operationID, request: request)
        }
    }

    /// Runs `request` like ``execute(_:)``, failing with ``CourierError/Kind/timeout`` when no
    /// complete response arrives within `timeout`; the request is then cancelled.
    func execute(_ request: RawRequest, timeout: Duration?) async throws(CourierError) -> Response {
        guard let timeout else { return try await execute(request) }
        let outcome: Result<Response, CourierError> = await withTaskGroup(of: Result<Response, CourierError>?.self) { group in
            group.addTask {
                do throws(CourierError) {
                    return .success(try await self.execute(request))
                } catch {
                    return .failure(error)
                }
            }
            group.addTask {
                do {
                    try await Task.sleep(for: timeout)
                } catch {
                    return nil
                }
                return .failure(CourierError(.timeout(TimeoutElapsed(limit: timeout)), operationID: request.operationID, request: request))
            }
            // The first to finish wins, the other is cancelled.
            var first: Result<Response, CourierError>?
            while first == nil, let next = await group.next() { first = next }
            group.cancelAll()
            return first ?? .failure(CourierError(.cancelled(nil), operationID: request.operationID, request: request))
        }
        return try outcome.get()
    }

    /// Runs `request` through the chain and returns the response with its body unread.
    func executeStreaming(_ request: RawRequest) async throws(CourierError) -> (HTTPResponse, HTTPBody?) {
        do {
            if middlewares.isEmpty {
                // No chain to build: the transport is called directly, and the redirect wrapper
                // only when the answer is a redirect.
                let answer = try await transport.send(request.head, body: request.body, baseURL: request.baseURL, operationID: request.operationID)
                guard redirects.limit > 0, RedirectingTransport.isRedirect(answer.0) else { return answer }
                return try await RedirectingTransport(base: transport, policy: redirects)
                    .follow(answer, request: request.head, body: request.body, baseURL: request.baseURL, operationID: request.operationID)
            }
            return try await makeChain(operationID: request.operationID)(request.head, request.body, request.baseURL)
        } catch let error as CourierError {
            throw error.with(operationID: request.operationID, request: request)
        } catch {
            throw PipelineErrors.classifyTransport(error).with(operationID: request.operationID, request: request)
        }
    }

    private typealias Next = @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)

    /// The middleware wrapped around the transport once; each stage's own errors are blamed on
    /// it by name, errors from further in pass through unchanged.
    /// Interceptors read response bodies into memory up to this provider's limit.
    private func withBodyLimit(_ middleware: any ClientMiddleware) -> any ClientMiddleware {
        guard var interceptor = middleware as? InterceptorMiddleware else { return middleware }
        interceptor.bodyLimit = responseBodyLimit
        return interceptor
    }

    /// The transport, wrapped to follow redirects when the policy allows any.
    private var effectiveTransport: any ClientTransport {
        redirects.limit > 0 ? RedirectingTransport(base: transport, policy: redirects) : transport
    }

    private func makeChain(operationID: String) -> Next {
        let transport = effectiveTransport
        var next: Next = { request, body, baseURL in
            do {
                return try await transport.send(request, body: body, baseURL: baseURL, operationID: operationID)
            } catch {
                throw PipelineErrors.classifyTransport(error)
            }
        }
        for stage in middlewares.reversed() {
            let middleware = withBodyLimit(stage)
            let inner = next
            next = { request, body, baseURL in
                do {
                    return try await middleware.intercept(
                        request,
                        body: body,
                        baseURL: baseURL,
                        operationID: operationID,
                        next: inner
                    )
                } catch let error as CourierError {
                    throw error
                } catch {
                    if PipelineErrors.isCancellation(error) { throw CourierError(.cancelled(error)) }
                    throw CourierError(.middleware(stage: stageName(of: middleware), error))
                }
            }
        }
        return next
    }
}

/// The deadline of a request with a timeout passed.
struct TimeoutElapsed: Error, CustomStringConvertible {
    let limit: Duration
    var description: String { "no response within \(limit)" }
}

enum PipelineErrors {
    /// Sorts a transport's error into cancellation, timeout or plain transport failure, the same
    /// way for URLSession (NSURLError −999, −1001) and AsyncHTTPClient (whose transport throws
    /// `CancellationError` and `CourierError.timeout`).
    static func classifyTransport(_ error: any Error) -> CourierError {
        if let error = error as? CourierError { return error }
        if isCancellation(error) { return CourierError(.cancelled(error)) }
        if isTimeout(error) { return CourierError(.timeout(error)) }
        return CourierError(.transport(error))
    }

    static func isCancellation(_ error: any Error) -> Bool {
        if error is CancellationError { return true }
        if let urlError = error as? URLError, urlError.code == .cancelled { return true }
        let nsError = error as NSError
        return nsError.domain == NSURLErrorDomain && nsError.code == NSURLErrorCancelled
    }

    static func isTimeout(_ error: any Error) -> Bool {
        if let urlError = error as? URLError, urlError.code == .timedOut { return true }
        let nsError = error as NSError
        return nsError.domain == NSURLErrorDomain && nsError.code == NSURLErrorTimedOut
    }
}

extension Provider {
    /// Sends `builder` and decodes a successful response body into `T`; an empty body is an
    /// error unless `T` is optional, when it is `nil`.
    public func send<T: Decodable & SendableMetatype>(_ builder: RequestBuilder, returning type: T.Type) async throws(CourierError) -> T {
        try await send(Request(builder, decoding: T.self))
    }

    /// Sends `builder` and returns the body's bytes; an empty body is an error.
    public func send(_ builder: RequestBuilder, returning type: Data.Type) async throws(CourierError) -> Data {
        try await send(Request(builder, decoding: Data.self))
    }

    /// Sends `builder` and returns the body's bytes, `nil` when empty.
    public func send(_ builder: RequestBuilder, returning type: Data?.Type) async throws(CourierError) -> Data? {
        try await send(Request(builder, decoding: Data?.self))
    }

    /// Sends `builder` and returns the body as text.
    public func send(_ builder: RequestBuilder, returning type: String.Type) async throws(CourierError) -> String {
        try await send(Request(builder, decoding: String.self))
    }

    /// Sends `builder` and checks that it succeeded.
    public func send(_ builder: RequestBuilder, returning type: Void.Type = Void.self) async throws(CourierError) {
        try await send(Request(builder, decoding: Void.self))
    }

    /// Sends `builder` and returns the response whatever its status.
    public func send(_ builder: RequestBuilder, returning type: Response.Type) async throws(CourierError) -> Response {
        try await send(Request(builder, decoding: Response.self))
    }

    /// Sends `builder` and returns the decoded body with the response.
    public func send<T: Decodable & SendableMetatype>(
        _ builder: RequestBuilder,
        returning type: (T, Response).Type
    ) async throws(CourierError) -> (T, Response) {
        try await send(Request(builder, decoding: (T, Response).self))
    }
}
