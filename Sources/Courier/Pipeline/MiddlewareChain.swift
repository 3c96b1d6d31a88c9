import Foundation
import HTTPTypes
import OpenAPIRuntime

extension Provider {
    typealias Next = @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)

    /// The middleware wrapped around the transport step for one request. Each stage's own errors
    /// are blamed on it by name; errors from further in pass through unchanged. Interceptors
    /// learn from `request` whether the response streams, and read bodies up to this provider's
    /// limit.
    func makeChain(for request: RawRequest) -> Next {
        let operationID = request.operationID
        let step = transportStep(for: request)
        var next: Next = { head, body, baseURL in
            do {
                return try await step.send(head, body: body.map { .stream($0) }, baseURL: baseURL, operationID: operationID)
            } catch {
                throw PipelineErrors.classifyTransport(error)
            }
        }
        let streaming = request.streamsResponse
        let attempt = request.attempt
        let limit = responseBodyLimit
        for middleware in middlewares.reversed() {
            let inner = next
            let interceptor = middleware as? InterceptorMiddleware
            next = { head, body, baseURL in
                do {
                    if let interceptor {
                        var raw = RawRequest(head: head, body: body, baseURL: baseURL, operationID: operationID, streamsResponse: streaming)
                        raw.attempt = attempt
                        return try await interceptor.intercept(
                            raw,
                            bodyLimit: limit,
                            next: inner
                        )
                    }
                    return try await middleware.intercept(head, body: body, baseURL: baseURL, operationID: operationID, next: inner)
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

    /// Whether `error` says that nothing of the request was sent: no connection could be opened
    /// or the host was not found (URLSession's codes; the AsyncHTTPClient transport reports its
    /// connection failures with the same code, and marks its connect timeouts).
    static func isNotSent(_ error: any Error) -> Bool {
        let nsError = error as NSError
        guard nsError.domain == NSURLErrorDomain else { return false }
        if nsError.userInfo[requestNotSentKey] as? Bool == true { return true }
        return [NSURLErrorCannotConnectToHost, NSURLErrorCannotFindHost, NSURLErrorDNSLookupFailed, NSURLErrorNotConnectedToInternet].contains(nsError.code)
    }

    /// The `userInfo` key with which a transport marks an error that came before anything of
    /// the request was sent (AsyncHTTPClient's connect and pool timeouts).
    static let requestNotSentKey = "CourierRequestNotSent"

    static func isTimeout(_ error: any Error) -> Bool {
        if let urlError = error as? URLError, urlError.code == .timedOut { return true }
        let nsError = error as NSError
        return nsError.domain == NSURLErrorDomain && nsError.code == NSURLErrorTimedOut
    }
}
