import AsyncHTTPClient
import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import NIOSSL
import NIOTLS

/// A TLS handshake that failed on AsyncHTTPClient, with its reason named: Courier reports it as
/// `CourierError.Kind.tls`.
package struct HTTPClientTLSFailure: Error, CustomStringConvertible {
    /// The host the handshake was with.
    package let host: String
    /// `expired`, `notYetValid`, `wrongHost`, `unknownAuthority`, `selfSigned`, `pinMismatch`,
    /// `clientCertificateRequired`, `clientCertificateRejected`, `protocolMismatch` or
    /// `handshake`: the names of Courier's `TLSFailure.Reason`s.
    package let reason: String
    /// What NIOSSL said, or what was found in the server's certificate.
    package let detail: String
    /// For a pin mismatch, the digests pinned and presented.
    package var expectedPins: [[UInt8]] = []
    package var presentedPins: [[UInt8]] = []
    /// NIOSSL's error.
    package let error: any Error

    package var description: String { "TLS handshake with \(host) failed (\(reason)): \(detail)" }
}

extension HTTPClientTransport {
    /// `error` as a named TLS failure when it is one, else `nil`. A certificate that did not
    /// verify is looked at again, over a connection of its own that only reads it, to tell an
    /// expired, not yet valid or self-signed certificate from one of an unknown authority.
    @inline(never)
    static func tlsFailure(_ error: any Error, url: URL, settings: HTTPClientSettings?) async -> HTTPClientTLSFailure? {
        guard error is NIOSSLError || error is NIOSSLExtraError || error is HTTPClientPinMismatch || error is HTTPClientError else { return nil }
        return await tlsFailure(error, url: url, configuration: settings?.tls?.configuration ?? .courierClient)
    }

    private static func tlsFailure(_ error: any Error, url: URL, configuration: TLSConfiguration) async -> HTTPClientTLSFailure? {
        let host = url.host ?? "?"
        if let mismatch = error as? HTTPClientPinMismatch {
            var failure = HTTPClientTLSFailure(host: host, reason: "pinMismatch", detail: "", error: error)
            failure.expectedPins = mismatch.expected
            failure.presentedPins = mismatch.presented
            return failure
        }
        if let extra = error as? NIOSSLExtraError, extra == .failedToValidateHostname {
            return HTTPClientTLSFailure(host: host, reason: "wrongHost", detail: String(describing: extra), error: error)
        }
        if let closed = error as? HTTPClientError, closed == .remoteConnectionClosed, url.scheme == "https" {
            // Over TLS 1.3 a server checks the client's certificate after the client's side of
            // the handshake is done, so its refusal arrives as a closed connection. Ask it again.
            let port = url.port ?? 443
            guard let refusal = await CertificateInspection.clientCertificateRefusal(host: host, port: port, configuration: configuration) else { return nil }
            return HTTPClientTLSFailure(host: host, reason: refusal.reason, detail: refusal.detail, error: error)
        }
        guard let ssl = error as? NIOSSLError else { return nil }
        let text: String
        switch ssl {
        case .handshakeFailed(let inner): text = String(describing: inner)
        case .uncleanShutdown: return nil
        default: text = String(describing: ssl)
        }
        let reason = Self.reason(of: text, presentsIdentity: configuration.privateKey != nil)
        // The connection closed mid-handshake with no alert: a connection that dropped, not a
        // TLS refusal; it is reported as a transport failure, as a reset is.
        if reason == "handshake", text.contains("EOF during handshake") { return nil }
        if reason == "certificate" {
            let port = url.port ?? (url.scheme == "https" ? 443 : 80)
            let found = await CertificateInspection.inspect(host: host, port: port)
            return HTTPClientTLSFailure(host: host, reason: found?.reason ?? "unknownAuthority", detail: found?.detail ?? text, error: error)
        }
        return HTTPClientTLSFailure(host: host, reason: reason, detail: text, error: error)
    }

    /// The reason BoringSSL's error text names; `certificate` for a chain that did not verify.
    /// `presentsIdentity`: whether the client offered a certificate of its own, without which a
    /// TLS 1.2 server's bare handshake failure means it wanted one.
    static func reason(of text: String, presentsIdentity: Bool = false) -> String {
        switch text {
        case let text where text.contains("CERTIFICATE_VERIFY_FAILED"):
            "certificate"
        case let text where text.contains("CERTIFICATE_REQUIRED") || text.contains("PEER_DID_NOT_RETURN_A_CERTIFICATE"):
            "clientCertificateRequired"
        case let text where text.contains("ALERT_HANDSHAKE_FAILURE") && text.contains("SSLV3") && !presentsIdentity:
            // TLS 1.2 servers answer a missing client certificate with a plain handshake failure.
            "clientCertificateRequired"
        case let text where text.contains("ALERT_UNKNOWN_CA") || text.contains("ALERT_BAD_CERTIFICATE")
            || text.contains("ALERT_CERTIFICATE_UNKNOWN") || text.contains("ALERT_DECRYPT_ERROR"):
            "clientCertificateRejected"
        case let text where text.contains("PROTOCOL_VERSION") || text.contains("UNSUPPORTED_PROTOCOL")
            || text.contains("NO_SHARED_CIPHER") || text.contains("NO_CIPHERS"):
            "protocolMismatch"
        default:
            "handshake"
        }
    }
}

/// Reads a server's certificate chain over a connection of its own that verifies nothing and
/// sends nothing, to say why the chain did not verify. Used only after a handshake failed: what
/// it finds names the error, and trusts nothing.
package enum CertificateInspection {
    /// Whether `host` is an IPv4 or IPv6 address, to which no server name is sent (RFC 6066 §3).
    static func isAddress(_ host: String) -> Bool {
        if host.contains(":") { return true }
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts.allSatisfy { part in UInt8(part) != nil }
    }

    /// The reason a chain failed and what shows it, or `nil` when the server could not be read
    /// again within two seconds.
    package static func inspect(host: String, port: Int) async -> (reason: String, detail: String)? {
        guard let chain = await chain(host: host, port: port), let leaf = chain.first else { return nil }
        let now = time_t(Date().timeIntervalSince1970)
        let formatter = ISO8601DateFormatter()
        func date(_ time: time_t) -> String { formatter.string(from: Date(timeIntervalSince1970: TimeInterval(time))) }
        for (index, certificate) in chain.enumerated() {
            let which = index == 0 ? "the server's certificate" : "certificate \(index + 1) of the chain"
            if certificate.notValidAfter < now {
                return ("expired", "\(which) expired at \(date(certificate.notValidAfter))")
            }
            if certificate.notValidBefore > now {
                return ("notYetValid", "\(which) is valid from \(date(certificate.notValidBefore))")
            }
        }
        if chain.count == 1, let der = try? leaf.toDERBytes(), let names = DERNames(der), names.issuer == names.subject {
            return ("selfSigned", "the server presented one certificate, signed by itself")
        }
        return ("unknownAuthority", "no trusted root signed the chain of \(chain.count) certificate\(chain.count == 1 ? "" : "s") the server presented")
    }

    /// Whether the server refuses this client's certificate, or its lack of one: a handshake
    /// with the client's own configuration, then a wait for the server's alert — four times as
    /// long as the handshake took, at least a quarter of a second and at most three seconds in
    /// all. `nil` when the server says nothing.
    static func clientCertificateRefusal(host: String, port: Int, configuration: TLSConfiguration) async -> (reason: String, detail: String)? {
        guard let context = try? NIOSSLContext(configuration: configuration) else { return nil }
        let serverName = CertificateInspection.isAddress(host) ? nil : host
        let loop = MultiThreadedEventLoopGroup.singleton.next()
        // Made before the connection, so that an alert that closes it at once is still seen.
        let seen = loop.makePromise(of: String?.self)
        let bootstrap = ClientBootstrap(group: loop)
            .connectTimeout(.seconds(2))
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(NIOSSLClientHandler(context: context, serverHostname: serverName))
                    try channel.pipeline.syncOperations.addHandler(FirstError(seen, started: .now()))
                }
            }
        guard let channel = try? await bootstrap.connect(host: host, port: port).get() else {
            seen.succeed(nil)
            return nil
        }
        let timeout = channel.eventLoop.scheduleTask(in: TimeAmount.seconds(3)) { channel.close(mode: .all, promise: nil) }
        defer { timeout.cancel() }
        guard let text = try? await seen.futureResult.get() else {
            return nil
        }
        channel.close(mode: .all, promise: nil)
        let reason = HTTPClientTransport.reason(of: text)
        return reason.hasPrefix("clientCertificate") ? (reason, text) : nil
    }

    /// Keeps every error the pipeline sees until the connection closes, or the first that
    /// names the client's certificate.
    private final class FirstError: ChannelInboundHandler, RemovableChannelHandler, @unchecked Sendable {
        // Touched only on the channel's event loop.
        typealias InboundIn = NIOAny
        let seen: EventLoopPromise<String?>
        let started: NIODeadline
        private var errors: [String] = []

        init(_ seen: EventLoopPromise<String?>, started: NIODeadline) {
            self.seen = seen
            self.started = started
        }
        func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
            if case .handshakeCompleted = event as? TLSUserEvent {
                // An alert about the client's certificate follows the handshake within a round trip.
                let took = NIODeadline.now() - started
                let wait = min(max(took * 4, .milliseconds(250)), .seconds(3))
                let channel = context.channel
                context.eventLoop.scheduleTask(in: wait) { channel.close(mode: .all, promise: nil) }
            }
            context.fireUserInboundEventTriggered(event)
        }
        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            let text = String(describing: error)
            errors.append(text)
            if HTTPClientTransport.reason(of: text).hasPrefix("clientCertificate") {
                seen.succeed(text)
                context.close(promise: nil)
            }
        }
        func channelInactive(context: ChannelHandlerContext) { seen.succeed(errors.isEmpty ? nil : errors.joined(separator: "; ")) }
        func handlerRemoved(context: ChannelHandlerContext) { seen.succeed(nil) }
    }

    private static func chain(host: String, port: Int) async -> [NIOSSLCertificate]? {
        var configuration = TLSConfiguration.makeClientConfiguration()
        configuration.certificateVerification = .noHostnameVerification
        guard let context = try? NIOSSLContext(configuration: configuration) else { return nil }
        let seen = NIOLockedValueBox<[NIOSSLCertificate]?>(nil)
        let serverName = CertificateInspection.isAddress(host) ? nil : host
        let bootstrap = ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connectTimeout(.seconds(2))
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let handler = try NIOSSLClientHandler(context: context, serverHostname: serverName) { certificates, promise in
                        seen.withLockedValue { $0 = certificates }
                        // Nothing is sent on this connection; it only reads the chain.
                        promise.succeed(NIOSSLVerificationResult.failed)
                    }
                    try channel.pipeline.syncOperations.addHandler(handler)
                }
            }
        guard let channel = try? await bootstrap.connect(host: host, port: port).get() else { return nil }
        // The handshake ends when the callback refuses the chain; wait for the close, two seconds at most.
        let closed = channel.closeFuture
        let timeout = channel.eventLoop.scheduleTask(in: TimeAmount.seconds(2)) { channel.close(mode: .all, promise: nil) }
        try? await closed.get()
        timeout.cancel()
        return seen.withLockedValue { $0 }
    }
}

/// The issuer and subject of a DER certificate, as their encoded bytes: equal for a certificate
/// that names itself as its issuer.
struct DERNames {
    let issuer: ArraySlice<UInt8>
    let subject: ArraySlice<UInt8>

    /// `nil` when `der` is not laid out as a certificate.
    init?(_ der: [UInt8]) {
        // Certificate ::= SEQUENCE { tbsCertificate SEQUENCE { [0] version?, serialNumber,
        // signature, issuer, validity, subject, … }, … }
        guard let certificate = Self.element(der, at: 0), let tbs = Self.element(der, at: certificate.content) else { return nil }
        var offset = tbs.content
        var fields: [(start: Int, end: Int)] = []
        while offset < tbs.end, fields.count < 6, let field = Self.element(der, at: offset) {
            fields.append((offset, field.end))
            offset = field.end
        }
        guard tbs.content < tbs.end else { return nil }
        let hasVersion = der[tbs.content] == 0xA0
        let first = hasVersion ? 1 : 0
        guard fields.count >= first + 5 else { return nil }
        issuer = der[fields[first + 2].start..<fields[first + 2].end]
        subject = der[fields[first + 4].start..<fields[first + 4].end]
    }

    /// The element at `offset`: where its content starts and where it ends.
    private static func element(_ der: [UInt8], at offset: Int) -> (content: Int, end: Int)? {
        guard offset + 2 <= der.count else { return nil }
        var index = offset + 1
        var length = Int(der[index])
        index += 1
        if length & 0x80 != 0 {
            let count = length & 0x7F
            guard count > 0, count <= 4, index + count <= der.count else { return nil }
            length = der[index..<(index + count)].reduce(0) { $0 << 8 | Int($1) }
            index += count
        }
        guard index + length <= der.count else { return nil }
        return (index, index + length)
    }
}
