public import Foundation

/// The SHA-256 digest of a certificate's SubjectPublicKeyInfo: the key a server's certificate
/// must carry when you pin it, written as RFC 7469 and OkHttp write it,
/// `sha256/` and 44 characters of base64.
///
/// ```swift
/// let pin = try PublicKeyPin("sha256/r/mIkG3eEpVdm+u/ko/cwxzOMo1bk4TyHIlByibiA5E=")
/// ```
///
/// Get a server's pin with
/// `openssl x509 -in cert.pem -pubkey -noout | openssl pkey -pubin -outform der | openssl dgst -sha256 -binary | base64`,
/// or from a ``TLSFailure``'s ``TLSFailure/presentedPins`` after a mismatch.
public struct PublicKeyPin: Sendable, Hashable, CustomStringConvertible {
    /// The 32 bytes of the digest.
    public let sha256: Data

    /// A pin from its text, `sha256/<base64>` or the base64 alone.
    public init(_ text: String) throws(CourierError) {
        let base64 = text.hasPrefix("sha256/") ? String(text.dropFirst(7)) : text
        guard let digest = Data(base64Encoded: base64) else {
            throw CourierError(.tlsConfiguration("the pin \(quoted(text)) is not 'sha256/' followed by base64"))
        }
        try self.init(sha256: digest)
    }

    /// A pin from the 32 bytes of a SubjectPublicKeyInfo's SHA-256 digest.
    public init(sha256 digest: Data) throws(CourierError) {
        guard digest.count == 32 else {
            throw CourierError(.tlsConfiguration("a SHA-256 pin is 32 bytes; this one is \(digest.count)"))
        }
        sha256 = digest
    }

    /// `sha256/` and the digest in base64.
    public var description: String { "sha256/" + sha256.base64EncodedString() }
}
