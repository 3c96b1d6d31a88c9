package import AsyncHTTPClient
import Foundation
import NIOConcurrencyHelpers
import NIOCore

/// What a provider's connection settings ask of AsyncHTTPClient: TLS, whether HTTP/2 may be
/// negotiated, and a proxy with the hosts that bypass it.
package struct HTTPClientSettings: Sendable {
    /// Roots, pins and identity; `nil` for the system's roots.
    package var tls: HTTPClientTLS?
    /// Whether HTTP/2 may be negotiated by ALPN.
    package var http2 = true
    /// The proxy, as AsyncHTTPClient takes it.
    package var proxy: HTTPClient.Configuration.Proxy?
    /// Hosts reached directly (`NO_PROXY`'s rules), and how they are matched.
    package var excludedHosts: [String] = []
    package var bypassesProxy: @Sendable (String) -> Bool = { _ in false }
    /// Names these settings among the process-wide clients: equal keys, equal settings.
    package var key: String

    package init(tls: HTTPClientTLS?, http2: Bool, proxy: HTTPClient.Configuration.Proxy?, excludedHosts: [String], bypassesProxy: @escaping @Sendable (String) -> Bool, key: String) {
        self.tls = tls
        self.http2 = http2
        self.proxy = proxy
        self.excludedHosts = excludedHosts
        self.bypassesProxy = bypassesProxy
        self.key = key
    }

    /// These settings without the proxy: the client of the hosts that bypass it.
    var withoutProxy: HTTPClientSettings {
        var copy = self
        copy.proxy = nil
        copy.excludedHosts = []
        copy.key += "|direct"
        return copy
    }

    /// Why a client of the user's own cannot take these settings, or `nil` when it can.
    var refusalOnClientOfYourOwn: String? {
        if let tls, !tls.pins.isEmpty {
            return "pins cannot be checked on an HTTPClient of your own (its configuration has no hook for them); let Courier make the client: Provider(baseURL:trust:)"
        }
        if proxy != nil { return "a proxy is part of an HTTPClient's configuration: set HTTPClient.Configuration.proxy on your own client, or let Courier make the client" }
        if !http2 { return "the HTTP version is part of an HTTPClient's configuration: set HTTPClient.Configuration.httpVersion on your own client, or let Courier make the client" }
        return nil
    }

    /// `configuration` with these settings.
    func apply(to configuration: inout HTTPClient.Configuration) {
        tls?.apply(to: &configuration)
        if !http2 { configuration.httpVersion = .http1Only }
        configuration.proxy = proxy
    }
}

/// Courier's process-wide AsyncHTTPClient clients besides `HTTPClientTransport.shared`'s: one per
/// pair of connect and read timeouts and connection settings asked for, made on first use and,
/// like it, never shut down.
enum ProcessWideClients {
    struct Key: Hashable {
        var connect: Int64?
        var read: Int64?
        var settings: String?
        init(_ timeout: HTTPClient.Configuration.Timeout, _ settings: HTTPClientSettings?) {
            connect = timeout.connect?.nanoseconds
            read = timeout.read?.nanoseconds
            self.settings = settings?.key
        }
    }

    private static let clients = NIOLockedValueBox<[Key: HTTPClient]>([:])

    /// The client with `timeout` and `settings`.
    static func client(_ timeout: HTTPClient.Configuration.Timeout, _ settings: HTTPClientSettings?) -> HTTPClient {
        clients.withLockedValue { clients in
            let key = Key(timeout, settings)
            if let client = clients[key] { return client }
            var configuration = HTTPClient.Configuration.courierDefault
            configuration.timeout = timeout
            settings?.apply(to: &configuration)
            let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration.keepingPartsBeforeAnUncleanClose())
            clients[key] = client
            return client
        }
    }
}
