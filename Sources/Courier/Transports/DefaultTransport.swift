import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import OpenAPIRuntime
import OpenAPIURLSession

extension Provider {
    /// The transport used when none is given: URLSession with an ephemeral configuration that
    /// keeps no cookies — nothing shared with `URLSession.shared`, nothing written to disk, no
    /// state carried from one request to the next unless you add a ``CookieJar``.
    static let defaultTransport: any ClientTransport = URLSessionTransport(
        configuration: .init(session: URLSession(configuration: statelessConfiguration(), delegate: NoAutomaticRedirects(), delegateQueue: nil))
    )

    static func statelessConfiguration() -> URLSessionConfiguration {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpCookieAcceptPolicy = .never
        configuration.httpShouldSetCookies = false
        configuration.httpCookieStorage = nil
        configuration.urlCache = nil
        return configuration
    }
}

/// Makes URLSession return redirect responses instead of following them — on Linux it would
/// send every header, credentials included, to the new location — so that Courier follows them
/// under its ``RedirectPolicy``.
final class NoAutomaticRedirects: NSObject, URLSessionTaskDelegate, Sendable {
    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest,
        completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }
}
