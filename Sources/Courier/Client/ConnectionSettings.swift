import Foundation
import OpenAPIRuntime

/// How a provider's connections are made: whom they trust, whether HTTP/2 may be negotiated, and
/// the proxy they go through. A transport applies them all or refuses them.
package struct ConnectionSettings: Hashable, Sendable {
    package var trust: TLSTrust = .system
    package var allowsHTTP2 = true
    package var proxy: Proxy?

    /// Nothing for a transport to change.
    var isDefault: Bool { trust.isSystem && allowsHTTP2 && proxy == nil }
}

/// A transport that can make its connections as ``ConnectionSettings`` say. A transport that does
/// not adopt it can only be used with the defaults.
package protocol ConnectionConfigurable: ClientTransport {
    /// This transport with `settings` applied; throws ``CourierError/Kind/tlsConfiguration``
    /// (for trust) or ``CourierError/Kind/proxy`` naming what it cannot apply.
    func configured(_ settings: ConnectionSettings) throws(CourierError) -> any ClientTransport
}

/// An error of a transport that knows the proxy refused the request.
protocol ProxyFailureReporting: Error {
    /// What the proxy did, in words.
    var proxyProblem: String { get }
}

extension Provider {
    /// Whether HTTP/2 may be negotiated over TLS (by ALPN); `true` unless you set it. `false`
    /// keeps every connection on HTTP/1.1. A transport that cannot honour it fails every request
    /// with ``CourierError/Kind/tlsConfiguration``.
    public var allowsHTTP2: Bool {
        get { connections.allowsHTTP2 }
        set { connections.allowsHTTP2 = newValue }
    }

    /// The proxy requests go through; `nil`, a direct connection, unless set with ``with(proxy:)``.
    public var proxy: Proxy? { connections.proxy }

    /// Whom the provider trusts over HTTPS, and what it presents: ``TLSTrust/system`` unless
    /// made with ``init(baseURL:trust:transport:)`` or ``trusting(_:)``.
    public var trust: TLSTrust { connections.trust }

    /// A copy whose requests go through `proxy` (or directly, for `nil`). Throws
    /// ``CourierError/Kind/proxy`` when the transport cannot use it.
    public func with(proxy: Proxy?) throws(CourierError) -> Provider {
        var copy = self
        copy.connections.proxy = proxy
        if let failure = copy.boundTransport.failure { throw failure }
        return copy
    }

    /// `transport` with `settings` applied, or why it cannot be.
    static func apply(_ settings: ConnectionSettings, to transport: any ClientTransport) -> Result<any ClientTransport, CourierError> {
        guard !settings.isDefault else { return .success(transport) }
        if !settings.trust.verifiesCertificates, !settings.trust.pins.isEmpty {
            return .failure(CourierError(.tlsConfiguration("pins cannot be combined with unsafeTrustingAnyCertificate: a pin is checked on top of verification")))
        }
        guard let configurable = transport as? any ConnectionConfigurable else {
            let what = [
                settings.trust.isSystem ? nil : "TLS settings (\(settings.trust))",
                settings.allowsHTTP2 ? nil : "HTTP/1.1 only",
                settings.proxy.map { "a proxy (\($0))" },
            ].compactMap { $0 }.joined(separator: ", ")
            let error = "the transport \(type(of: transport)) cannot apply \(what); use the AsyncHTTPClient transport, or configure the transport yourself and keep the provider's defaults"
            return .failure(CourierError(settings.proxy != nil && settings.trust.isSystem ? .proxy(error) : .tlsConfiguration(error)))
        }
        do {
            return .success(try configurable.configured(settings))
        } catch {
            return .failure(error)
        }
    }
}
