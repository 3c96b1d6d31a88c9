import Foundation

/// Whom a provider trusts over HTTPS, and what it presents when a server asks who is calling.
///
/// The default, ``system``, trusts the platform's root certificates and nothing else. Start from
/// ``system`` or ``only(_:)`` and add to it:
///
/// ```swift
/// let companyRoot = try TLSCertificate(contentsOf: URL(fileURLWithPath: "/etc/company/root.pem"))
/// let trust = TLSTrust.system
///     .adding(roots: [companyRoot])
///     .pinning([try PublicKeyPin("sha256/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=")])
/// let provider = try Provider(baseURL: "https://internal.example.com", trust: trust)
/// ```
///
/// Each transport enforces every part of it or refuses it: making a provider with a trust its
/// transport cannot enforce throws ``CourierError/Kind/tlsConfiguration``, so that no root, pin
/// or identity is ever ignored. Verification is never off unless you choose
/// ``unsafeTrustingAnyCertificate``.
public struct TLSTrust: Sendable, Hashable, CustomStringConvertible {
    /// Root certificates trusted besides, or instead of, the system's.
    public private(set) var roots: [TLSCertificate] = []
    /// Whether the platform's root certificates are trusted (with ``roots`` beside them).
    public private(set) var trustsSystemRoots = true
    /// Keys of which the server's certificate must have one, checked on top of validation.
    public private(set) var pins: [PublicKeyPin] = []
    /// The certificate and key presented to a server that asks for one (mutual TLS).
    public private(set) var identity: ClientIdentity?
    /// `false` only for ``unsafeTrustingAnyCertificate``.
    public private(set) var verifiesCertificates = true

    /// The platform's root certificates, with the server's name checked: what browsers do.
    public static let system = TLSTrust()

    /// The given root certificates instead of the platform's: only servers whose chain ends in
    /// one of them are trusted.
    public static func only(_ roots: [TLSCertificate]) -> TLSTrust {
        var trust = TLSTrust()
        trust.roots = roots
        trust.trustsSystemRoots = false
        return trust
    }

    /// Trusts any certificate from any server, under any name: anyone between you and the
    /// server can read and change every request. For a local development server only; never
    /// the default, and never combined with pins.
    public static var unsafeTrustingAnyCertificate: TLSTrust {
        var trust = TLSTrust()
        trust.verifiesCertificates = false
        return trust
    }

    /// This trust with `roots` trusted as well.
    public func adding(roots more: [TLSCertificate]) -> TLSTrust {
        var copy = self
        copy.roots += more
        return copy
    }

    /// This trust, with the server's certificate also required to carry one of `pins`' keys.
    /// Pins are compared with the key of the certificate the server presents (RFC 7469's
    /// `sha256/` spelling, as OkHttp writes them): keep a pin of the next key beside the current
    /// one, so that a new certificate does not lock your users out.
    public func pinning(_ pins: [PublicKeyPin]) -> TLSTrust {
        var copy = self
        copy.pins += pins
        return copy
    }

    /// This trust, presenting `identity` to servers that ask for a client certificate.
    public func presenting(_ identity: ClientIdentity) -> TLSTrust {
        var copy = self
        copy.identity = identity
        return copy
    }

    /// Whether this is ``system``: nothing for a transport to change.
    public var isSystem: Bool { self == .system }

    /// `system`, or what is trusted and presented: `system + 1 root, 2 pins, client identity`.
    public var description: String {
        guard verifiesCertificates else { return "unsafeTrustingAnyCertificate" }
        var parts: [String] = []
        if !roots.isEmpty { parts.append("\(roots.count) root\(roots.count == 1 ? "" : "s")") }
        if !pins.isEmpty { parts.append("\(pins.count) pin\(pins.count == 1 ? "" : "s")") }
        if identity != nil { parts.append("client identity") }
        let base = trustsSystemRoots ? "system" : "only"
        return parts.isEmpty ? base : base + (trustsSystemRoots ? " + " : " ") + parts.joined(separator: ", ")
    }
}
