#if canImport(CourierHTTPClientTransport)
import CourierHTTPClientTransport
import Foundation

// The AsyncHTTPClient transport's side of a trust, on the platforms where Courier uses it by
// default: its TLS configuration, pins checked on each new connection, and its failures named.

extension HTTPClientTransport: TrustingTransport {
    /// Enforces every part of `trust`: roots through NIOSSL's trust roots, pins on each new
    /// connection before anything is sent on it, the identity as the client's certificate chain.
    package func trusting(_ trust: TLSTrust) throws(CourierError) -> any ClientTransport {
        do {
            let settings = try HTTPClientTLS(
                roots: trust.roots.map(\.der),
                trustsSystemRoots: trust.trustsSystemRoots,
                verifies: trust.verifiesCertificates,
                pins: trust.pins.map(\.sha256),
                identityChain: trust.identity?.certificateChain.map(\.der) ?? [],
                identityKey: trust.identity?.keyPEM,
                key: trust.cacheKey
            )
            return try trusting(settings)
        } catch {
            throw CourierError(.tlsConfiguration("AsyncHTTPClient cannot enforce \(trust): \(error)"))
        }
    }
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
