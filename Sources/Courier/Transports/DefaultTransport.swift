#if canImport(CourierHTTPClientTransport)
import CourierHTTPClientTransport
#endif
public import OpenAPIRuntime

extension Provider {
    /// The transport used when none is given. On Linux, AsyncHTTPClient on one process-wide
    /// client: FoundationNetworking there costs several times the CPU per request and cannot
    /// stream a request body. On Apple platforms, ``urlSessionTransport``.
    #if canImport(CourierHTTPClientTransport)
    static let defaultTransport: any ClientTransport = HTTPClientTransport.shared
    #else
    static let defaultTransport: any ClientTransport = urlSessionTransport
    #endif

    /// Courier's URLSession transport, ``URLSessionHTTPTransport``, on an ephemeral configuration
    /// that keeps no cookies — nothing shared with `URLSession.shared`, nothing written to disk,
    /// no state carried from one request to the next unless you add a ``CookieJar`` — and no
    /// redirects followed by URLSession itself. The default on Apple platforms; on Linux, pass it
    /// to use URLSession: `Provider(baseURL: url, transport: Provider.urlSessionTransport)`.
    public static let urlSessionTransport: any ClientTransport = URLSessionHTTPTransport()
}
