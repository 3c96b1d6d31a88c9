public import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPTypes
public import OpenAPIRuntime

/// A transport that can enforce a ``TLSTrust``: its roots, pins and client identity, or none of
/// them. A transport that does not adopt it can only be used with ``TLSTrust/system``.
package protocol TrustingTransport: ClientTransport {
    /// This transport enforcing `trust`; throws ``CourierError/Kind/tlsConfiguration`` naming the
    /// part it cannot enforce.
    func trusting(_ trust: TLSTrust) throws(CourierError) -> any ClientTransport
}

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
        copy.trust = trust
        if let failure = copy.boundTransport.failure { throw failure }
        return copy
    }

    /// `transport` enforcing `trust`, or why it cannot.
    static func apply(_ trust: TLSTrust, to transport: any ClientTransport) -> Result<any ClientTransport, CourierError> {
        guard !trust.isSystem else { return .success(transport) }
        if !trust.verifiesCertificates, !trust.pins.isEmpty {
            return .failure(CourierError(.tlsConfiguration("pins cannot be combined with unsafeTrustingAnyCertificate: a pin is checked on top of verification")))
        }
        guard let trusting = transport as? any TrustingTransport else {
            return .failure(CourierError(.tlsConfiguration(
                "the transport \(type(of: transport)) cannot enforce TLS settings (\(trust)); use the AsyncHTTPClient transport, or configure TLS in the transport yourself and keep the provider's trust .system"
            )))
        }
        do {
            return .success(try trusting.trusting(trust))
        } catch {
            return .failure(error)
        }
    }
}

extension URLSessionHTTPTransport: TrustingTransport {
    /// URLSession takes no roots, pins or identity of Courier's yet: on Linux FoundationNetworking
    /// offers no server-trust or client-certificate challenge at all, and trusts the system's
    /// bundle only. Any trust but ``TLSTrust/system`` throws, so that none is ignored.
    package func trusting(_ trust: TLSTrust) throws(CourierError) -> any ClientTransport {
        #if canImport(FoundationNetworking)
        let why = "FoundationNetworking on Linux gives no server-trust or client-certificate challenge and always uses the system's bundle"
        #else
        let why = "Courier's URLSession transport does not answer server-trust and client-certificate challenges yet"
        #endif
        throw CourierError(.tlsConfiguration("URLSession cannot enforce \(trust): \(why); use the AsyncHTTPClient transport for it"))
    }
}

/// A transport that cannot be used: every request fails with the error that made it so.
struct RefusedTransport: ClientTransport {
    let error: CourierError

    func send(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String) async throws -> (HTTPResponse, HTTPBody?) {
        throw error
    }
}
