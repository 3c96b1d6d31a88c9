/// Where a request a transport sends again on a new connection is told: the AsyncHTTPClient
/// transport reports, and Courier sets ``report`` for a request it observes, to put the resend in
/// the request's span and log entry.
package enum ConnectionResends {
    /// Called with the reason each time a request is sent once more on a new connection.
    @TaskLocal package static var report: (@Sendable (String) -> Void)?
}
