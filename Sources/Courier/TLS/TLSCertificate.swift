public import Foundation

/// An X.509 certificate, kept as its DER bytes: a root to trust, or part of a client identity.
///
/// Read one from PEM (`-----BEGIN CERTIFICATE-----`) or DER, from bytes or a file. What is not a
/// certificate is refused here, with the reason, rather than when the first request is sent.
public struct TLSCertificate: Sendable, Hashable {
    /// The certificate's DER encoding.
    public let der: Data

    /// The certificate in `der`, its DER encoding.
    public init(der: Data) throws(CourierError) {
        // Every certificate is one ASN.1 SEQUENCE; a PEM file passed here starts with '-'.
        guard der.first == 0x30, der.count > 2 else {
            throw CourierError(.tlsConfiguration("the bytes given as a DER certificate are not one (\(der.count) bytes, starting \(PEM.hexPrefix(der)))"))
        }
        self.der = der
    }

    /// The one certificate in `pem`; use ``certificates(pem:)`` for a file of several.
    public init(pem: Data) throws(CourierError) {
        let all = try Self.certificates(pem: pem)
        guard all.count == 1 else {
            throw CourierError(.tlsConfiguration("the PEM text holds \(all.count) certificates where one was expected; use TLSCertificate.certificates(pem:)"))
        }
        self = all[0]
    }

    /// Every certificate in `pem`, in order: a bundle of roots, or a chain.
    public static func certificates(pem: Data) throws(CourierError) -> [TLSCertificate] {
        let blocks = try PEM.blocks(in: pem)
        let certificates = blocks.filter { $0.label == "CERTIFICATE" || $0.label == "TRUSTED CERTIFICATE" }
        guard !certificates.isEmpty else {
            let labels = blocks.map(\.label)
            throw CourierError(.tlsConfiguration(
                labels.isEmpty ? "the PEM text holds no '-----BEGIN CERTIFICATE-----' block"
                    : "the PEM text holds no certificate, only \(labels.map { "'\($0)'" }.joined(separator: ", "))"
            ))
        }
        return try certificates.map { block throws(CourierError) in try TLSCertificate(der: block.der) }
    }

    /// Every certificate in the file at `url`, PEM or DER.
    public static func certificates(contentsOf url: URL) throws(CourierError) -> [TLSCertificate] {
        let data = try PEM.read(url, what: "certificate")
        do {
            return try data.first == 0x30 ? [TLSCertificate(der: data)] : certificates(pem: data)
        } catch {
            throw CourierError(.tlsConfiguration("\(url.path): \(error.message)"))
        }
    }

    /// The one certificate in the file at `url`, PEM or DER.
    public init(contentsOf url: URL) throws(CourierError) {
        let all = try Self.certificates(contentsOf: url)
        guard all.count == 1 else {
            throw CourierError(.tlsConfiguration("\(url.path) holds \(all.count) certificates where one was expected; use TLSCertificate.certificates(contentsOf:)"))
        }
        self = all[0]
    }

    /// The certificate as PEM text.
    public var pem: String { PEM.encode(der, label: "CERTIFICATE") }
}

/// The certificate chain and private key a client presents to a server that asks for one.
public struct ClientIdentity: Sendable, Hashable {
    /// The client's certificate first, then any intermediates.
    public let certificateChain: [TLSCertificate]
    /// The private key, PEM-encoded (PKCS #8, SEC 1 or PKCS #1).
    let privateKeyPEM: Data

    /// An identity from PEM text: the certificate chain (the client's own first) and its
    /// private key.
    public init(certificateChainPEM: Data, privateKeyPEM: Data) throws(CourierError) {
        certificateChain = try TLSCertificate.certificates(pem: certificateChainPEM)
        let keys = try PEM.blocks(in: privateKeyPEM).filter { PEM.privateKeyLabels.contains($0.label) }
        guard keys.count == 1 else {
            throw CourierError(.tlsConfiguration(
                keys.isEmpty ? "the private key's PEM text holds no '-----BEGIN PRIVATE KEY-----' (or EC or RSA) block"
                    : "the private key's PEM text holds \(keys.count) keys where one was expected"
            ))
        }
        self.privateKeyPEM = Data(PEM.encode(keys[0].der, label: keys[0].label).utf8)
    }

    /// An identity from two PEM files: the certificate chain and its private key.
    public init(certificateChainFile: URL, privateKeyFile: URL) throws(CourierError) {
        let chain = try PEM.read(certificateChainFile, what: "certificate chain")
        let key = try PEM.read(privateKeyFile, what: "private key")
        do {
            try self.init(certificateChainPEM: chain, privateKeyPEM: key)
        } catch {
            throw CourierError(.tlsConfiguration("\(certificateChainFile.lastPathComponent) and \(privateKeyFile.lastPathComponent): \(error.message)"))
        }
    }

    /// The private key's PEM bytes, for the transports.
    package var keyPEM: Data { privateKeyPEM }
}

/// Reads PEM text: `-----BEGIN LABEL-----`, base64, `-----END LABEL-----`.
enum PEM {
    struct Block {
        let label: String
        let der: Data
    }

    static let privateKeyLabels: Set<String> = ["PRIVATE KEY", "EC PRIVATE KEY", "RSA PRIVATE KEY"]

    static func blocks(in pem: Data) throws(CourierError) -> [Block] {
        guard let text = String(data: pem, encoding: .utf8) else {
            throw CourierError(.tlsConfiguration("the PEM text is not UTF-8 (\(pem.count) bytes, starting \(hexPrefix(pem)))"))
        }
        var blocks: [Block] = []
        var label: String?
        var body = ""
        for (index, rawLine) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            if let open = line.between("-----BEGIN ", "-----") {
                guard label == nil else {
                    throw CourierError(.tlsConfiguration("PEM line \(index + 1): '-----BEGIN \(open)-----' inside the unfinished '\(label ?? "")' block"))
                }
                label = open
                body = ""
            } else if let close = line.between("-----END ", "-----") {
                guard let open = label, open == close else {
                    throw CourierError(.tlsConfiguration("PEM line \(index + 1): '-----END \(close)-----' without its BEGIN line"))
                }
                guard let der = Data(base64Encoded: body), !der.isEmpty else {
                    throw CourierError(.tlsConfiguration("PEM block '\(open)' ending on line \(index + 1) is not valid base64"))
                }
                blocks.append(Block(label: open, der: der))
                label = nil
            } else if label != nil, !line.contains(":") {
                // RFC 1421 headers (`Proc-Type: …`) are skipped; the rest is base64.
                body += line
            }
        }
        if let label {
            throw CourierError(.tlsConfiguration("PEM block '\(label)' has no '-----END \(label)-----' line"))
        }
        return blocks
    }

    static func encode(_ der: Data, label: String) -> String {
        let base64 = der.base64EncodedString(options: [.lineLength64Characters, .endLineWithLineFeed])
        return "-----BEGIN \(label)-----\n\(base64)\n-----END \(label)-----\n"
    }

    static func read(_ url: URL, what: String) throws(CourierError) -> Data {
        do {
            return try Data(contentsOf: url)
        } catch {
            throw CourierError(.tlsConfiguration("the \(what) file \(url.path) could not be read: \(error.localizedDescription)"))
        }
    }

    static func hexPrefix(_ data: Data) -> String {
        data.prefix(4).map { String(format: "%02x", $0) }.joined(separator: " ")
    }
}

extension StringProtocol {
    /// The text between `prefix` and `suffix` when the string is exactly that.
    fileprivate func between(_ prefix: String, _ suffix: String) -> String? {
        guard hasPrefix(prefix), hasSuffix(suffix), count >= prefix.count + suffix.count else { return nil }
        return String(dropFirst(prefix.count).dropLast(suffix.count))
    }
}
