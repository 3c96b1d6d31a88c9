import Foundation

enum PipelineErrors {
    /// Sorts a transport's error into cancellation, timeout or plain transport failure, the same
    /// way for URLSession (NSURLError −999, −1001) and AsyncHTTPClient (whose transport throws
    /// `CancellationError` and `CourierError.timeout`).
    static func classifyTransport(_ error: any Error) -> CourierError {
        if let error = error as? CourierError { return error }
        if let failure = error as? any TLSFailureReporting { return CourierError(.tls(failure.tlsFailure, error)) }
        if let failure = error as? any ProxyFailureReporting { return CourierError(.proxy(failure.proxyProblem)) }
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
