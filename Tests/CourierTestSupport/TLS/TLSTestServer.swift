import Foundation
import Hummingbird
import HummingbirdCore
import HummingbirdHTTP2
import HummingbirdTLS
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import NIOSSL

/// The test server's routes over TLS, on 127.0.0.1 with an OS-chosen port: one server per kind
/// of certificate, each started on first use and shared by the process. Certificates come from
/// ``TestPKI/shared``.
public enum TLSTestServer {
    /// Which server: the good one, or one whose certificate or demands are wrong on purpose.
    public enum Kind: String, CaseIterable, Sendable, CustomStringConvertible {
        /// A certificate from ``TestPKI/root`` for `localhost` and `127.0.0.1`; HTTP/2 and
        /// HTTP/1.1 offered by ALPN.
        case good
        /// The good certificate, HTTP/1.1 only.
        case http1Only
        /// The validity of the certificate ended yesterday.
        case expired
        /// The certificate is valid from tomorrow.
        case notYetValid
        /// The certificate names `wrong.example` only.
        case wrongHost
        /// The certificate is signed by its own key.
        case selfSigned
        /// The certificate is signed by an authority nobody trusts.
        case unknownAuthority
        /// Asks every client for a certificate from ``TestPKI/clientRoot`` (mutual TLS).
        case clientCertificateRequired
        /// Speaks TLS 1.0 and 1.1 only, which Courier's clients no longer accept.
        case legacyTLSOnly
        /// Answers every client hello with TLS's fatal `protocol_version` alert, as a server does
        /// that shares no TLS version with the client (a raw socket: no certificate at all).
        case noCommonVersion

        public var description: String { rawValue }

        var identity: TestIdentity {
            let pki = TestPKI.shared
            return switch self {
            case .good, .http1Only, .clientCertificateRequired, .legacyTLSOnly, .noCommonVersion: pki.server
            case .expired: pki.expired
            case .notYetValid: pki.notYetValid
            case .wrongHost: pki.wrongHost
            case .selfSigned: pki.selfSigned
            case .unknownAuthority: pki.unknownAuthority
            }
        }
    }

    private static let servers = NIOLockedValueBox<[Kind: Task<Int, any Error>]>([:])

    /// The port of the server of `kind`, started on first use.
    public static func port(_ kind: Kind = .good) async throws -> Int {
        let task = servers.withLockedValue { servers in
            if let task = servers[kind] { return task }
            let task = Task<Int, any Error> { try await start(kind) }
            servers[kind] = task
            return task
        }
        return try await task.value
    }

    /// `https://127.0.0.1:<port>` (or `localhost`) plus `path`.
    public static func baseURL(_ kind: Kind = .good, host: String = "127.0.0.1", _ path: String = "") async throws -> String {
        "https://\(host):\(try await port(kind))\(path)"
    }

    private static func start(_ kind: Kind) async throws -> Int {
        if kind == .noCommonVersion { return try await startRefusingVersions() }
        let pki = TestPKI.shared
        let identity = kind.identity
        var tls = TLSConfiguration.makeServerConfiguration(
            certificateChain: try NIOSSLCertificate.fromPEMBytes(Array(identity.certificatePEM.utf8)).map { .certificate($0) },
            privateKey: .privateKey(try NIOSSLPrivateKey(bytes: Array(identity.privateKeyPEM.utf8), format: .pem))
        )
        if kind == .clientCertificateRequired {
            tls.trustRoots = .certificates(try NIOSSLCertificate.fromPEMBytes(Array(pki.clientRoot.certificatePEM.utf8)))
            tls.certificateVerification = .noHostnameVerification
        }
        if kind == .legacyTLSOnly {
            tls.minimumTLSVersion = .tlsv1
            tls.maximumTLSVersion = .tlsv11
        }
        let server: HTTPServerBuilder =
            kind == .http1Only || kind == .legacyTLSOnly
            ? try .tls(.http1(), tlsConfiguration: tls)
            : try .http2Upgrade(tlsConfiguration: tls)

        let (ports, continuation) = AsyncStream<Int>.makeStream()
        var logger = Logger(label: "courier-tls-test-server")
        logger.logLevel = .critical
        let app = Application(
            router: TestServer.makeRouter(),
            server: server,
            configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in
                continuation.yield(channel.localAddress?.port ?? 0)
                continuation.finish()
            },
            logger: logger
        )
        Task.detached {
            // A server that fails before it runs ends the wait for its port.
            do { try await app.run() } catch { continuation.finish() }
        }
        for await port in ports where port != 0 { return port }
        throw ServerDidNotStart()
    }
}

extension TLSTestServer {
    /// A listener that reads a client hello and answers with a fatal `protocol_version` alert.
    private static func startRefusingVersions() async throws -> Int {
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(ProtocolVersionAlert())
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        return channel.localAddress?.port ?? 0
    }
}

/// Answers the first bytes it reads with a TLS alert record (RFC 8446 §6): level fatal (2),
/// description `protocol_version` (70), then closes.
private final class ProtocolVersionAlert: ChannelInboundHandler, Sendable {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let alert = ByteBuffer(bytes: [0x15, 0x03, 0x03, 0x00, 0x02, 0x02, 0x46])
        context.writeAndFlush(wrapOutboundOut(alert)).whenComplete { _ in context.close(promise: nil) }
    }
}

extension TestServer {
    /// A port on 127.0.0.1 that nothing listens on: bound by the system's choice, then closed.
    public static func freePort() async throws -> Int {
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .bind(host: "127.0.0.1", port: 0).get()
        let port = channel.localAddress?.port ?? 0
        try await channel.close()
        return port
    }
}
