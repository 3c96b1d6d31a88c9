#if canImport(CourierHTTPClientTransport)
import AsyncHTTPClient
import CourierHTTPClientTransport
import Foundation

// The AsyncHTTPClient transport's side of a trust, on the platforms where Courier uses it by
// default: its TLS configuration, pins checked on each new connection, and its failures named.

extension HTTPClientTransport: ConnectionConfigurable {
    /// Applies every part of `settings`: roots through NIOSSL's trust roots, pins on each new
    /// connection before anything is sent on it, the identity as the client's certificate chain,
    /// HTTP/1.1 only when HTTP/2 is not allowed, and the proxy, bypassed for its excluded hosts.
    package func configured(_ settings: ConnectionSettings) throws(CourierError) -> any ClientTransport {
        let trust = settings.trust
        let tls: HTTPClientTLS?
        do {
            tls = trust.isSystem ? nil : try HTTPClientTLS(
                roots: trust.roots.map(\.der),
                trustsSystemRoots: trust.trustsSystemRoots,
                verifies: trust.verifiesCertificates,
                pins: trust.pins.map(\.sha256),
                identityChain: trust.identity?.certificateChain.map(\.der) ?? [],
                identityKey: trust.identity?.keyPEM,
                key: trust.cacheKey
            )
        } catch {
            throw CourierError(.tlsConfiguration("AsyncHTTPClient cannot enforce \(trust): \(error)"))
        }
        let proxy = settings.proxy
        let converted = HTTPClientSettings(
            tls: tls,
            http2: settings.allowsHTTP2,
            proxy: proxy.map(Self.proxy),
            excludedHosts: proxy?.excludedHosts ?? [],
            bypassesProxy: { host in proxy?.excludes(host) ?? false },
            key: [tls?.key ?? "system", settings.allowsHTTP2 ? "h2" : "h1", proxy.map { "\($0)|\($0.password ?? "")" } ?? "direct"].joined(separator: "|")
        )
        do {
            return try configured(converted)
        } catch {
            throw settings.proxy != nil && tls == nil
                ? CourierError(.proxy("AsyncHTTPClient cannot use \(settings.proxy.map(\.description) ?? ""): \(error)"))
                : CourierError(.tlsConfiguration("AsyncHTTPClient cannot apply the provider's connection settings: \(error)"))
        }
    }

    /// `proxy` as AsyncHTTPClient takes it.
    private static func proxy(_ proxy: Proxy) -> HTTPClient.Configuration.Proxy {
        switch proxy.kind {
        case .socks5:
            return .socksServer(host: proxy.host, port: proxy.port)
        default:
            let credentials = proxy.username.map { HTTPClient.Authorization.basic(username: $0, password: proxy.password ?? "") }
            return .server(host: proxy.host, port: proxy.port, authorization: credentials)
        }
    }
}

extension HTTPClientProxyFailure: ProxyFailureReporting {
    var proxyProblem: String { description }
}

extension HTTPClientTLSFailure: TLSFailureReporting {
    /// The failure in Courier's terms.
    var tlsFailure: TLSFailure {
        TLSFailure(
            host: host,
            reason: TLSFailure.Reason(name: reason),
            detail: detail,
            expectedPins: expectedPins.compactMap { try? PublicKeyPin(sha256: Data($0)) },
            presentedPins: presentedPins.compactMap { try? PublicKeyPin(sha256: Data($0)) }
        )
    }
}
#endif

extension TLSTrust {
    /// The same text for equal trusts, naming every part: what process-wide clients are kept by.
    var cacheKey: String {
        var parts = [verifiesCertificates ? "verify" : "any", trustsSystemRoots ? "system" : "only"]
        parts += roots.map { "root:" + $0.der.base64EncodedString() }
        parts += pins.map { "pin:" + $0.description }
        if let identity {
            parts += identity.certificateChain.map { "chain:" + $0.der.base64EncodedString() }
            parts.append("key:" + identity.keyPEM.base64EncodedString())
        }
        return parts.joined(separator: "|")
    }
}
