import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPTypes
public import OpenAPIRuntime

extension Provider {
    /// A provider for the API at `baseURL` that trusts, and presents, what `trust` says. Throws
    /// ``CourierError/Kind/tlsConfiguration`` when the transport cannot enforce every part of it.
    ///
    /// ```swift
    /// let root = try TLSCertificate(contentsOf: URL(fileURLWithPath: "ca.pem"))
    /// let provider = try Provider(baseURL: "https://internal.example.com", trust: .only([root]))
    /// ```
    public init(baseURL: String, trust: TLSTrust, transport: (any ClientTransport)? = nil) throws(CourierError) {
        self = try Provider(baseURL: baseURL, transport: transport).trusting(trust)
    }

    /// A copy that trusts, and presents, what `trust` says, on this provider's transport. Throws
    /// ``CourierError/Kind/tlsConfiguration`` when the transport cannot enforce every part of it:
    /// no root, pin or identity is ever ignored. Setting ``transport`` afterwards keeps the trust;
    /// if the new transport cannot enforce it, every request fails with that error.
    public func trusting(_ trust: TLSTrust) throws(CourierError) -> Provider {
        var copy = self
        copy.connections.trust = trust
        if let failure = copy.boundTransport.failure { throw failure }
        return copy
    }
}

extension URLSessionHTTPTransport: ConnectionConfigurable {
    /// URLSession takes no roots, pins, identity, HTTP version or proxy of Courier's yet: on
    /// Linux FoundationNetworking offers no server-trust or client-certificate challenge at all,
    /// and trusts the system's bundle only. Anything but the defaults throws, so that none is
    /// ignored.
    package func configured(_ settings: ConnectionSettings) throws(CourierError) -> any ClientTransport {
        #if canImport(FoundationNetworking)
        let why = "FoundationNetworking on Linux gives no server-trust or client-certificate challenge and always uses the system's bundle"
        #else
        let why = "Courier's URLSession transport does not answer server-trust and client-certificate challenges yet"
        #endif
        if !settings.trust.isSystem {
            throw CourierError(.tlsConfiguration("URLSession cannot enforce \(settings.trust): \(why); use the AsyncHTTPClient transport for it"))
        }
        if !settings.allowsHTTP2 {
            throw CourierError(.tlsConfiguration("URLSession chooses the HTTP version itself and cannot be kept to HTTP/1.1; use the AsyncHTTPClient transport for it"))
        }
        throw CourierError(.proxy("Courier's URLSession transport does not take a proxy yet (\(settings.proxy.map(\.description) ?? "")); set it on the URLSessionConfiguration you give the transport, or use the AsyncHTTPClient transport"))
    }
}

/// A transport that cannot be used: every request fails with the error that made it so.
struct RefusedTransport: ClientTransport {
    let error: CourierError

    func send(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String) async throws -> (HTTPResponse, HTTPBody?) {
        throw error
    }
}
