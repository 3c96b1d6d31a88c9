import Crypto
import Foundation
public import NIOSSL
import SwiftASN1
import X509

/// The benchmark server's certificate: self-signed for 127.0.0.1, made at start, trusted by both
/// sides of every TLS pair as their only root.
public enum BenchmarkTLS {
    private static let identity: (certificate: String, key: String) = {
        do {
            let key = P256.Signing.PrivateKey()
            let name = try DistinguishedName { CommonName("courier-benchmark") }
            let now = Date()
            let certificate = try Certificate(
                version: .v3,
                serialNumber: .init(),
                publicKey: .init(key.publicKey),
                notValidBefore: now - 3600,
                notValidAfter: now + 86_400,
                issuer: name,
                subject: name,
                signatureAlgorithm: .ecdsaWithSHA256,
                extensions: try Certificate.Extensions {
                    Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
                    Critical(KeyUsage(digitalSignature: true, keyCertSign: true))
                    SubjectAlternativeNames([.ipAddress(ASN1OctetString(contentBytes: [127, 0, 0, 1]))])
                },
                issuerPrivateKey: .init(key)
            )
            return (try certificate.serializeAsPEM().pemString, key.pemRepresentation)
        } catch {
            preconditionFailure("the benchmark certificate could not be made: \(error)")
        }
    }()

    /// The certificate, PEM-encoded: the root both sides trust.
    public static var certificatePEM: String { identity.certificate }

    /// The server's configuration: the certificate and its key.
    public static func serverConfiguration() throws -> TLSConfiguration {
        TLSConfiguration.makeServerConfiguration(
            certificateChain: try NIOSSLCertificate.fromPEMBytes(Array(identity.certificate.utf8)).map { .certificate($0) },
            privateKey: .privateKey(try NIOSSLPrivateKey(bytes: Array(identity.key.utf8), format: .pem))
        )
    }

    /// What the raw client trusts: the certificate alone, as Courier's `TLSTrust.only` does.
    public static func clientConfiguration() throws -> TLSConfiguration {
        var configuration = TLSConfiguration.makeClientConfiguration()
        configuration.trustRoots = .certificates(try NIOSSLCertificate.fromPEMBytes(Array(identity.certificate.utf8)))
        return configuration
    }
}
