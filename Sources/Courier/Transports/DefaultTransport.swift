import Foundation
import HTTPTypes
public import OpenAPIRuntime

// The one place that knows which transport a platform gets, and the only one that names the
// AsyncHTTPClient transport: the pipeline sees transports only through their capabilities.

extension Provider {
    /// Courier's URLSession transport, ``URLSessionHTTPTransport``, on an ephemeral configuration
    /// that keeps no cookies — nothing shared with `URLSession.shared`, nothing written to disk,
    /// no state carried from one request to the next unless you add a ``CookieJar`` — and no
    /// redirects followed by URLSession itself. The default on Apple platforms; on Linux, pass it
    /// to use URLSession: `Provider(baseURL: url, transport: Provider.urlSessionTransport)`.
    public static let urlSessionTransport: any ClientTransport = URLSessionHTTPTransport()
}

#if canImport(CourierHTTPClientTransport)
import CourierHTTPClientTransport

extension Provider {
    /// The transport used when none is given: on Linux, AsyncHTTPClient on one process-wide
    /// client. FoundationNetworking there costs several times the CPU per request and cannot
    /// stream a request body.
    package static let defaultTransport: any ClientTransport = HTTPClientTransport.shared
}

extension HTTPClientTransport: BoundableTransport {
    /// The process-wide client configured with the two bounds; a client of your own keeps its
    /// configuration.
    package func bounded(by timeouts: Timeouts, bodyLimit: Int) -> any ClientTransport {
        bounded(connect: timeouts.connect, read: timeouts.idle)
    }
}
#else
extension Provider {
    /// The transport used when none is given: on Apple platforms, ``urlSessionTransport``.
    package static let defaultTransport: any ClientTransport = urlSessionTransport
}
#endif
