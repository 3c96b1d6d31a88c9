public import AsyncHTTPClient
import NIOCore

extension HTTPClient.Configuration {
    /// AsyncHTTPClient's defaults with a connection pool sized for concurrent API calls (64
    /// connections per host rather than 8), and redirects not followed by the client: Courier
    /// follows them under its `RedirectPolicy`, which keeps credentials from other origins.
    public static var courierDefault: HTTPClient.Configuration {
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool = .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: 64)
        configuration.redirectConfiguration = .disallow
        return configuration
    }
}
