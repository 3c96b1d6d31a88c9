public import AsyncHTTPClient
import NIOCore
import NIOSSL

extension HTTPClient.Configuration {
    /// AsyncHTTPClient's defaults with a connection pool sized for concurrent API calls (64
    /// connections per host rather than 8); redirects not followed by the client, because Courier
    /// follows them under its `RedirectPolicy`, which keeps credentials from other origins; and
    /// a connection that cannot be made fails at once rather than being tried again until the
    /// connect timeout; bounded waits: 10 seconds to connect, and 30 seconds at most without a byte of the response,
    /// head or body, streamed bodies included. No tracer: Courier makes the request's spans.
    public static var courierDefault: HTTPClient.Configuration {
        var configuration = HTTPClient.Configuration()
        configuration.timeout = .init(connect: .seconds(10), read: .seconds(30))
        configuration.connectionPool = .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: 64)
        // A connection that cannot be made — refused, or a TLS handshake that fails — fails the
        // requests waiting for it at once, with its own error, instead of being tried again until
        // the connect timeout; the retry policy decides what is sent again.
        configuration.connectionPool.retryConnectionEstablishment = false
        configuration.redirectConfiguration = .disallow
        configuration.tlsConfiguration = .courierClient
        // Courier traces each request itself, named by its endpoint; the client adds no span.
        configuration.tracing.tracer = nil
        return configuration
    }
}

extension TLSConfiguration {
    /// NIOSSL's client configuration with TLS 1.0 and 1.1 refused: every client Courier makes
    /// starts from it.
    static var courierClient: TLSConfiguration {
        var configuration = TLSConfiguration.makeClientConfiguration()
        configuration.minimumTLSVersion = .tlsv12
        return configuration
    }
}
