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
        /// Speaks TLS 1.3 only.
        case tls13Only

        public var description: String { rawValue }

        var identity: TestIdentity {
            let pki = TestPKI.shared
            return switch self {
            case .good, .http1Only, .clientCertificateRequired, .tls13Only: pki.server
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
        if kind == .tls13Only {
            tls.minimumTLSVersion = .tlsv13
        }
        let server: HTTPServerBuilder =
            kind == .http1Only || kind == .tls13Only
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
        Task.detached { try await app.run() }
        for await port in ports where port != 0 { return port }
        throw ServerDidNotStart()
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
