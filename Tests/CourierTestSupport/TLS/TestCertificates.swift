import Crypto
public import Foundation
import NIOSSL
import SwiftASN1
import X509

/// A certificate and its private key, as PEM and DER, made in the test process: no key of the
/// suite is ever written to the repository.
public struct TestIdentity: Sendable {
    /// The certificate, PEM-encoded.
    public let certificatePEM: String
    /// The certificate, DER-encoded.
    public let certificateDER: [UInt8]
    /// The private key, PKCS #8 PEM.
    public let privateKeyPEM: String
    /// `sha256/` and the base64 SHA-256 of the certificate's SubjectPublicKeyInfo: its pin.
    public let pin: String

    public var certificatePEMData: Data { Data(certificatePEM.utf8) }
    public var privateKeyPEMData: Data { Data(privateKeyPEM.utf8) }
}

/// The suite's certificate authorities and certificates, good and bad, made once per process.
///
/// `root` is the authority the tests trust; the server certificates it signs name `localhost`
/// and `127.0.0.1`, except the ones that are wrong on purpose.
public struct TestPKI: Sendable {
    /// The authority the tests trust.
    public let root: TestIdentity
    /// A server certificate for `localhost` and `127.0.0.1`, signed by ``root``.
    public let server: TestIdentity
    /// Signed by ``root``, but its validity ended yesterday.
    public let expired: TestIdentity
    /// Signed by ``root``, but valid only from tomorrow.
    public let notYetValid: TestIdentity
    /// Signed by ``root``, for `wrong.example` only.
    public let wrongHost: TestIdentity
    /// For `localhost` and `127.0.0.1`, signed by its own key.
    public let selfSigned: TestIdentity
    /// An authority nobody trusts.
    public let unknownRoot: TestIdentity
    /// For `localhost` and `127.0.0.1`, signed by ``unknownRoot``.
    public let unknownAuthority: TestIdentity
    /// The authority the mutual-TLS server takes client certificates from.
    public let clientRoot: TestIdentity
    /// A client certificate signed by ``clientRoot``.
    public let client: TestIdentity
    /// A client certificate signed by ``unknownRoot``: the mutual-TLS server refuses it.
    public let strangerClient: TestIdentity

    /// The process's certificates.
    public static let shared: TestPKI = {
        do {
            return try TestPKI()
        } catch {
            // The suite cannot run over TLS without them; every TLS test reports this.
            preconditionFailure("the test certificates could not be made: \(error)")
        }
    }()

    private init() throws {
        let now = Date()
        let day: TimeInterval = 86_400
        let root = try Authority(name: "Courier Test Root")
        let unknownRoot = try Authority(name: "Courier Unknown Root")
        let clientRoot = try Authority(name: "Courier Client Root")
        let local = ["localhost", "127.0.0.1"]
        self.root = root.identity
        self.unknownRoot = unknownRoot.identity
        self.clientRoot = clientRoot.identity
        server = try root.issue(commonName: "localhost", names: local, from: now - day, to: now + 30 * day)
        expired = try root.issue(commonName: "expired", names: local, from: now - 30 * day, to: now - day)
        notYetValid = try root.issue(commonName: "not yet valid", names: local, from: now + day, to: now + 30 * day)
        wrongHost = try root.issue(commonName: "wrong.example", names: ["wrong.example"], from: now - day, to: now + 30 * day)
        unknownAuthority = try unknownRoot.issue(commonName: "localhost", names: local, from: now - day, to: now + 30 * day)
        selfSigned = try Authority.selfSigned(names: local, from: now - day, to: now + 30 * day)
        client = try clientRoot.issue(commonName: "courier-client", names: [], from: now - day, to: now + 30 * day, client: true)
        strangerClient = try unknownRoot.issue(commonName: "stranger", names: [], from: now - day, to: now + 30 * day, client: true)
    }
}

/// A certificate authority: its key and its self-signed certificate.
private struct Authority {
    let key: P256.Signing.PrivateKey
    let name: DistinguishedName
    let certificate: Certificate
    let identity: TestIdentity

    init(name commonName: String) throws {
        let key = P256.Signing.PrivateKey()
        let name = try DistinguishedName {
            OrganizationName("Courier tests")
            CommonName(commonName)
        }
        self.key = key
        self.name = name
        let now = Date()
        let certificate = try Certificate(
            version: .v3,
            serialNumber: .init(),
            publicKey: .init(key.publicKey),
            notValidBefore: now - 86_400,
            notValidAfter: now + 365 * 86_400,
            issuer: name,
            subject: name,
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: nil))
                Critical(KeyUsage(digitalSignature: true, keyCertSign: true))
                SubjectKeyIdentifier(hash: .init(key.publicKey))
            },
            issuerPrivateKey: .init(key)
        )
        self.certificate = certificate
        identity = try Self.identity(certificate, key: key)
    }

    /// A certificate for `names` (DNS names or IPv4 addresses) signed by this authority.
    func issue(commonName: String, names: [String], from: Date, to: Date, client: Bool = false) throws -> TestIdentity {
        let leafKey = P256.Signing.PrivateKey()
        let leaf = try Certificate(
            version: .v3,
            serialNumber: .init(),
            publicKey: .init(leafKey.publicKey),
            notValidBefore: from,
            notValidAfter: to,
            issuer: name,
            subject: try DistinguishedName { CommonName(commonName) },
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Self.leafExtensions(names: names, client: client, authorityKey: key.publicKey),
            issuerPrivateKey: .init(key)
        )
        return try Self.identity(leaf, key: leafKey)
    }

    /// A server certificate signed by its own key, not by an authority.
    static func selfSigned(names: [String], from: Date, to: Date) throws -> TestIdentity {
        let key = P256.Signing.PrivateKey()
        let name = try DistinguishedName { CommonName("self-signed localhost") }
        let certificate = try Certificate(
            version: .v3,
            serialNumber: .init(),
            publicKey: .init(key.publicKey),
            notValidBefore: from,
            notValidAfter: to,
            issuer: name,
            subject: name,
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try leafExtensions(names: names, client: false, authorityKey: nil),
            issuerPrivateKey: .init(key)
        )
        return try identity(certificate, key: key)
    }

    static func leafExtensions(names: [String], client: Bool, authorityKey: P256.Signing.PublicKey?) throws -> Certificate.Extensions {
        let alternativeNames: [GeneralName] = names.map { name in
            let octets = name.split(separator: ".").compactMap { UInt8($0) }
            return octets.count == 4 && !name.contains(where: \.isLetter)
                ? .ipAddress(ASN1OctetString(contentBytes: ArraySlice(octets)))
                : .dnsName(name)
        }
        return try Certificate.Extensions {
            Critical(BasicConstraints.notCertificateAuthority)
            Critical(KeyUsage(digitalSignature: true))
            try ExtendedKeyUsage([client ? .clientAuth : .serverAuth])
            if !alternativeNames.isEmpty {
                SubjectAlternativeNames(alternativeNames)
            }
            if let authorityKey {
                AuthorityKeyIdentifier(keyIdentifier: SubjectKeyIdentifier(hash: .init(authorityKey)).keyIdentifier)
            }
        }
    }

    static func identity(_ certificate: Certificate, key: P256.Signing.PrivateKey) throws -> TestIdentity {
        var serializer = DER.Serializer()
        try serializer.serialize(certificate)
        let der = serializer.serializedBytes
        let spki = try NIOSSLCertificate(bytes: der, format: .der).extractPublicKey().toSPKIBytes()
        return TestIdentity(
            certificatePEM: try certificate.serializeAsPEM().pemString,
            certificateDER: der,
            privateKeyPEM: key.pemRepresentation,
            pin: "sha256/" + Data(SHA256.hash(data: spki)).base64EncodedString()
        )
    }
}
