import Foundation

extension Provider {
    /// The provider's authenticator when it applies to `request`: one to the base URL's origin,
    /// not sent by the authenticator's own refresh.
    func authenticator(for request: RawRequest) -> (any RequestAuthenticating)? {
        guard let authenticator, !authenticator.isRefreshingHere, let base = baseURL, Origin(base) == Origin(request.baseURL) else { return nil }
        return authenticator
    }

    /// The error of a request whose credential could not be had: cancelled when the request
    /// itself was, and otherwise ``CourierError/Kind/authentication`` carrying the refresh's
    /// error — whatever it was, a failed request to a token endpoint included.
    static func authenticationError(_ error: any Error, _ request: RawRequest) -> CourierError {
        if Task.isCancelled { return CourierError(.cancelled(error), operationID: request.operationID, request: request) }
        return CourierError(.refreshFailed(error), operationID: request.operationID, request: request)
    }
}
