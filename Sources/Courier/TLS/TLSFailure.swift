import Foundation

/// Why a TLS handshake failed: what ``CourierError/tlsFailure`` holds for an error of kind
/// ``CourierError/Kind/tls``.
///
/// ```swift
/// do {
///     _ = try await provider.send(request)
/// } catch let error as CourierError where error.kind == .tls {
///     if error.tlsFailure?.reason == .expired { print("renew", error.tlsFailure?.host ?? "") }
/// }
/// ```
public struct TLSFailure: Sendable, CustomStringConvertible {
    /// Why the handshake failed. New reasons may be added; match the ones you handle.
    public struct Reason: Hashable, Sendable, CustomStringConvertible {
        let name: String

        /// The server's certificate is past its end of validity.
        public static let expired = Reason(name: "expired")
        /// The server's certificate is not valid yet.
        public static let notYetValid = Reason(name: "notYetValid")
        /// The server's certificate does not name the host that was asked for.
        public static let wrongHost = Reason(name: "wrongHost")
        /// The server's certificate is signed by an authority that is not trusted.
        public static let unknownAuthority = Reason(name: "unknownAuthority")
        /// The server's certificate is signed by its own key, and is not trusted as a root.
        public static let selfSigned = Reason(name: "selfSigned")
        /// The server's certificate is valid, but its key is none of the pinned ones.
        public static let pinMismatch = Reason(name: "pinMismatch")
        /// The server asked for a client certificate and none was presented.
        public static let clientCertificateRequired = Reason(name: "clientCertificateRequired")
        /// The server refused the client certificate presented.
        public static let clientCertificateRejected = Reason(name: "clientCertificateRejected")
        /// Client and server have no TLS version or cipher suite in common.
        public static let protocolMismatch = Reason(name: "protocolMismatch")
        /// Another failure of the handshake; ``TLSFailure/detail`` says what the transport said.
        public static let handshake = Reason(name: "handshake")

        /// The reason's name, such as `expired`.
        public var description: String { name }
    }

    /// The host the handshake was with.
    public let host: String
    /// Why it failed.
    public let reason: Reason
    /// What the transport reported, or what Courier found in the server's certificate.
    public let detail: String
    /// For ``Reason/pinMismatch``: the pins the provider requires.
    public let expectedPins: [PublicKeyPin]
    /// For ``Reason/pinMismatch``: the pins of the keys the server presented.
    public let presentedPins: [PublicKeyPin]

    /// A failure of the handshake with `host`.
    package init(host: String, reason: Reason, detail: String, expectedPins: [PublicKeyPin] = [], presentedPins: [PublicKeyPin] = []) {
        self.host = host
        self.reason = reason
        self.detail = detail
        self.expectedPins = expectedPins
        self.presentedPins = presentedPins
    }

    /// The reason in words, the host and the detail.
    public var description: String {
        var text = "the TLS handshake with \(host) failed: " + Self.explain(reason)
        if !detail.isEmpty { text += " (\(detail))" }
        if reason == .pinMismatch {
            text += "; expected one of \(expectedPins.map(\.description).joined(separator: ", ")), the server presented \(presentedPins.map(\.description).joined(separator: ", "))"
        }
        return text
    }

    private static func explain(_ reason: Reason) -> String {
        switch reason {
        case .expired: "the server's certificate has expired"
        case .notYetValid: "the server's certificate is not valid yet"
        case .wrongHost: "the server's certificate is not for this host name"
        case .unknownAuthority: "the server's certificate is signed by an authority that is not trusted"
        case .selfSigned: "the server's certificate is self-signed and not trusted"
        case .pinMismatch: "the server's key matches none of the pinned keys"
        case .clientCertificateRequired: "the server requires a client certificate and none was presented"
        case .clientCertificateRejected: "the server refused the client certificate"
        case .protocolMismatch: "client and server share no TLS version or cipher suite"
        default: "the handshake was refused"
        }
    }
}

/// An error of a transport that knows it is a failed TLS handshake.
protocol TLSFailureReporting: Error {
    /// The failure, named.
    var tlsFailure: TLSFailure { get }
}
