import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import OpenAPIRuntime
import OpenAPIURLSession
#if canImport(CourierHTTPClientTransport)
import CourierHTTPClientTransport
#endif

extension Provider {
    /// The transport used when none is given. On Linux, AsyncHTTPClient on one process-wide
    /// client: FoundationNetworking there costs several times the CPU per request, cannot stream,
    /// never returns from a `401` with a Basic challenge, may send a `POST` twice on a reused
    /// connection, and buffers bodies whole. On Apple platforms, ``urlSessionTransport``.
    #if canImport(CourierHTTPClientTransport)
    static let defaultTransport: any ClientTransport = HTTPClientTransport.shared
    #else
    static let defaultTransport: any ClientTransport = urlSessionTransport
    #endif

    /// Courier's URLSession transport: an ephemeral configuration that keeps no cookies —
    /// nothing shared with `URLSession.shared`, nothing written to disk, no state carried from one
    /// request to the next unless you add a ``CookieJar`` — and no redirects followed by
    /// URLSession itself. The default on Apple platforms; on Linux, pass it to use URLSession:
    /// `Provider(baseURL: url, transport: Provider.urlSessionTransport)`.
    public static let urlSessionTransport: any ClientTransport = URLSessionTransport(
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
