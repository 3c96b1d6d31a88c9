import AsyncHTTPClient
package import Foundation
import NIOCore
package import NIOSSL

/// What a provider's trust asks of AsyncHTTPClient: its TLS configuration, the key pins checked on
/// each new connection, and a key naming both, under which the process-wide client is kept.
package struct HTTPClientTLS: Sendable {
    /// Roots, verification and client identity.
    package var configuration: TLSConfiguration
    /// SHA-256 digests of the SubjectPublicKeyInfo one of which the server's certificate must
    /// carry; empty for none.
    package var pins: [[UInt8]]
    /// Names this configuration among the process-wide clients: equal keys, equal settings.
    package var key: String

    /// Settings from a trust's parts. `roots` and `identityChain` are DER certificates,
    /// `identityKey` a PEM private key. Throws `HTTPClientTLSSettingsError` naming the part
    /// NIOSSL refused.
    package init(
        roots: [Data], trustsSystemRoots: Bool, verifies: Bool, pins: [Data],
        identityChain: [Data], identityKey: Data?, key: String
    ) throws {
        var configuration = TLSConfiguration.courierClient
        if !verifies {
            configuration.certificateVerification = .none
        }
        do {
            let rootCertificates = try roots.map { try NIOSSLCertificate(bytes: Array($0), format: .der) }
            if trustsSystemRoots {
                if !rootCertificates.isEmpty {
                    configuration.additionalTrustRoots = [.certificates(rootCertificates)]
                }
            } else {
                configuration.trustRoots = .certificates(rootCertificates)
            }
        } catch {
            throw HTTPClientTLSSettingsError(message: "NIOSSL refused a root certificate: \(error)")
        }
        if let identityKey {
            do {
                configuration.certificateChain = try identityChain.map { .certificate(try NIOSSLCertificate(bytes: Array($0), format: .der)) }
                configuration.privateKey = .privateKey(try NIOSSLPrivateKey(bytes: Array(identityKey), format: .pem))
            } catch {
                throw HTTPClientTLSSettingsError(message: "NIOSSL refused the client identity: \(error)")
            }
        }
        self.configuration = configuration
        self.pins = pins.map { Array($0) }
        self.key = key
    }

    /// Checks a new connection's server certificate against the pins, before AsyncHTTPClient
    /// sends anything on it: a connection whose key is none of them fails with `PinMismatch`.
    func checkPins(_ channel: any Channel) -> EventLoopFuture<Void> {
        let pins = self.pins
        return channel.eventLoop.submit {
            do {
                let handler = try channel.pipeline.syncOperations.handler(type: NIOSSLClientHandler.self)
                guard let certificate = handler.peerCertificate else {
                    throw HTTPClientPinMismatch(expected: pins, presented: [])
                }
                let presented = SHA256Digest.of(try certificate.extractPublicKey().toSPKIBytes())
                guard pins.contains(presented) else {
                    throw HTTPClientPinMismatch(expected: pins, presented: [presented])
                }
            } catch {
                // AsyncHTTPClient drops a connection its initializer refused without closing it.
                channel.close(promise: nil)
                throw error
            }
        }
    }

    /// `configuration` with these settings: TLS, and the pin check on every new connection.
    func apply(to configuration: inout HTTPClient.Configuration) {
        configuration.tlsConfiguration = self.configuration
        guard !pins.isEmpty else { return }
        let check: @Sendable (any Channel) -> EventLoopFuture<Void> = { channel in self.checkPins(channel) }
        configuration.http1_1ConnectionDebugInitializer = check
        configuration.http2ConnectionDebugInitializer = check
    }
}

/// A trust NIOSSL could not take: a certificate or key it refused.
package struct HTTPClientTLSSettingsError: Error, CustomStringConvertible {
    /// What was refused, and NIOSSL's reason.
    package let message: String
    package var description: String { message }
}

/// The server's certificate carries none of the pinned keys; the connection was closed before
/// anything was sent on it.
package struct HTTPClientPinMismatch: Error, CustomStringConvertible {
    /// The SHA-256 digests of the pinned SubjectPublicKeyInfos.
    package let expected: [[UInt8]]
    /// The digests of the keys the server presented.
    package let presented: [[UInt8]]
    package var description: String {
        "the server's key (\(presented.map { "sha256/" + Data($0).base64EncodedString() }.joined(separator: ", "))) is none of the pinned ones"
    }
}

/// SHA-256 (FIPS 180-4), for key pins: the digest of a few hundred bytes per new connection.
package enum SHA256Digest {
    private static let k: [UInt32] = [
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
        0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
        0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
        0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
        0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
        0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
        0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
    ]

    /// The 32-byte digest of `bytes`.
    package static func of(_ bytes: [UInt8]) -> [UInt8] {
        var h: [UInt32] = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]
        var message = bytes
        message.append(0x80)
        while message.count % 64 != 56 { message.append(0) }
        let bitLength = UInt64(bytes.count) &* 8
        for shift in stride(from: 56, through: 0, by: -8) { message.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift))) }
        var w = [UInt32](repeating: 0, count: 64)
        for chunk in stride(from: 0, to: message.count, by: 64) {
            for i in 0..<16 {
                let j = chunk + i * 4
                w[i] = UInt32(message[j]) << 24 | UInt32(message[j + 1]) << 16 | UInt32(message[j + 2]) << 8 | UInt32(message[j + 3])
            }
            for i in 16..<64 {
                let s0 = rotate(w[i - 15], 7) ^ rotate(w[i - 15], 18) ^ (w[i - 15] >> 3)
                let s1 = rotate(w[i - 2], 17) ^ rotate(w[i - 2], 19) ^ (w[i - 2] >> 10)
                w[i] = w[i - 16] &+ s0 &+ w[i - 7] &+ s1
            }
            var (a, b, c, d, e, f, g, hh) = (h[0], h[1], h[2], h[3], h[4], h[5], h[6], h[7])
            for i in 0..<64 {
                let s1 = rotate(e, 6) ^ rotate(e, 11) ^ rotate(e, 25)
                let choice = (e & f) ^ (~e & g)
                let t1 = hh &+ s1 &+ choice &+ k[i] &+ w[i]
                let s0 = rotate(a, 2) ^ rotate(a, 13) ^ rotate(a, 22)
                let majority = (a & b) ^ (a & c) ^ (b & c)
                let t2 = s0 &+ majority
                (hh, g, f, e, d, c, b, a) = (g, f, e, d &+ t1, c, b, a, t1 &+ t2)
            }
            for (i, value) in [a, b, c, d, e, f, g, hh].enumerated() { h[i] = h[i] &+ value }
        }
        return h.flatMap { word in (0..<4).map { UInt8(truncatingIfNeeded: word >> UInt32(24 - $0 * 8)) } }
    }

    private static func rotate(_ value: UInt32, _ count: UInt32) -> UInt32 { value >> count | value << (32 - count) }
}
