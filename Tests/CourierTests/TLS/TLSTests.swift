import AsyncHTTPClient
import Courier
import CourierAsyncHTTPClient
import CourierTestSupport
import Foundation
import HTTPTypes
import Testing

/// A provider on AsyncHTTPClient for the TLS server of `kind`, trusting `trust`.
func tlsProvider(_ kind: TLSTestServer.Kind = .good, host: String = "127.0.0.1", trust: TLSTrust = testTrust) async throws -> Provider {
    try Provider(baseURL: try await TLSTestServer.baseURL(kind, host: host), trust: trust, transport: HTTPClientTransport.shared)
}

@Suite("HTTPS: trust, certificates and their errors", .timeLimit(.minutes(2)))
struct TLSTrustTests {
    @Test("A private root: calls go over HTTPS, HTTP/2 when the server offers it, HTTP/1.1 when not")
    func privateRoot() async throws {
        let h2 = try await tlsProvider(.good)
        let seen = try await h2.send(Request(RequestBuilder(method: .get, path: "/protocol"), receiving: .json(ConnectionSeen.self)))
        #expect(seen.http2)
        #expect(try await h2.send(Request(RequestBuilder(method: .get, path: "/users/3"), receiving: .json(TestUser.self))) == TestUser(id: 3, name: "Ada"))
        let h1 = try await tlsProvider(.http1Only)
        let seenH1 = try await h1.send(Request(RequestBuilder(method: .get, path: "/protocol"), receiving: .json(ConnectionSeen.self)))
        #expect(!seenH1.http2)
        // By name too: the certificate names localhost.
        let byName = try await tlsProvider(.good, host: "localhost")
        #expect(try await byName.send(Request(RequestBuilder(method: .get, path: "/users/4"), receiving: .json(TestUser.self))).id == 4)
    }

    @Test(
        "Each bad certificate fails with its own reason, naming the host, and is not retried",
        arguments: [
            (TLSTestServer.Kind.expired, TLSFailure.Reason.expired, "expired"),
            (.notYetValid, .notYetValid, "not valid yet"),
            (.wrongHost, .wrongHost, "not for this host name"),
            (.selfSigned, .selfSigned, "self-signed"),
            (.unknownAuthority, .unknownAuthority, "authority that is not trusted"),
            (.legacyTLSOnly, .protocolMismatch, "share no TLS version"),
            (.noCommonVersion, .protocolMismatch, "share no TLS version"),
        ]
    )
    func badCertificates(kind: TLSTestServer.Kind, reason: TLSFailure.Reason, words: String) async throws {
        var provider = try await tlsProvider(kind)
        provider.retryPolicy = .init(maxAttempts: 3)
        let error = await #expect(throws: CourierError.self) {
            try await provider.send(Request(RequestBuilder(method: .get, path: "/users/1"), receiving: .json(TestUser.self)))
        }
        #expect(error?.kind == .tls)
        #expect(error?.tlsFailure?.reason == reason)
        #expect(error?.tlsFailure?.host == "127.0.0.1")
        #expect(error?.message.contains(words) == true)
        #expect(error?.message.contains("127.0.0.1") == true)
        #expect((error?.attempts.count ?? 0) <= 1)
    }

    @Test("The system's roots do not trust the test root")
    func systemTrust() async throws {
        let provider = try await tlsProvider(.good, trust: .system)
        let error = await #expect(throws: CourierError.self) {
            try await provider.send(Request(RequestBuilder(method: .get, path: "/users/1"), receiving: .json(TestUser.self)))
        }
        #expect(error?.kind == .tls)
        #expect(error?.tlsFailure?.reason == .unknownAuthority)
    }

    @Test("Roots beside the system's are trusted too")
    func addedRoot() async throws {
        let root = try TLSCertificate(pem: TestPKI.shared.root.certificatePEMData)
        let provider = try await tlsProvider(.good, trust: TLSTrust.system.adding(roots: [root]))
        #expect(try await provider.send(Request(RequestBuilder(method: .get, path: "/users/5"), receiving: .json(TestUser.self))).id == 5)
    }

    @Test("A pin of the server's key lets calls through; any other fails, naming both keys")
    func pins() async throws {
        let pki = TestPKI.shared
        let good = try await tlsProvider(.http1Only, trust: testTrust.pinning([try PublicKeyPin(pki.server.pin)]))
        #expect(try await good.send(Request(RequestBuilder(method: .get, path: "/users/6"), receiving: .json(TestUser.self))).id == 6)
        let h2 = try await tlsProvider(.good, trust: testTrust.pinning([try PublicKeyPin(pki.unknownRoot.pin), try PublicKeyPin(pki.server.pin)]))
        #expect(try await h2.send(Request(RequestBuilder(method: .get, path: "/users/7"), receiving: .json(TestUser.self))).id == 7)

        let wrong = try PublicKeyPin(pki.unknownRoot.pin)
        let bad = try await tlsProvider(.good, trust: testTrust.pinning([wrong]))
        let error = await #expect(throws: CourierError.self) {
            try await bad.send(Request(RequestBuilder(method: .get, path: "/users/1"), receiving: .json(TestUser.self)))
        }
        #expect(error?.kind == .tls)
        #expect(error?.tlsFailure?.reason == .pinMismatch)
        #expect(error?.tlsFailure?.expectedPins == [wrong])
        #expect(error?.tlsFailure?.presentedPins.map(\.description) == [pki.server.pin])
        #expect(error?.message.contains(pki.server.pin) == true)
        #expect(error?.message.contains(wrong.description) == true)
    }

    @Test("Mutual TLS: no certificate, a stranger's, and the right one")
    func clientCertificates() async throws {
        let pki = TestPKI.shared
        let none = try await tlsProvider(.clientCertificateRequired)
        let missing = await #expect(throws: CourierError.self) {
            try await none.send(Request(RequestBuilder(method: .get, path: "/users/1"), receiving: .json(TestUser.self)))
        }
        #expect(missing?.kind == .tls, "\(String(describing: missing))")
        #expect(missing?.tlsFailure?.reason == .clientCertificateRequired)

        let stranger = try ClientIdentity(certificateChainPEM: pki.strangerClient.certificatePEMData, privateKeyPEM: pki.strangerClient.privateKeyPEMData)
        let refused = try await tlsProvider(.clientCertificateRequired, trust: testTrust.presenting(stranger))
        let rejected = await #expect(throws: CourierError.self) {
            try await refused.send(Request(RequestBuilder(method: .get, path: "/users/1"), receiving: .json(TestUser.self)))
        }
        #expect(rejected?.kind == .tls)
        #expect(rejected?.tlsFailure?.reason == .clientCertificateRejected)

        let identity = try ClientIdentity(certificateChainPEM: pki.client.certificatePEMData, privateKeyPEM: pki.client.privateKeyPEMData)
        let accepted = try await tlsProvider(.clientCertificateRequired, trust: testTrust.presenting(identity))
        #expect(try await accepted.send(Request(RequestBuilder(method: .get, path: "/users/8"), receiving: .json(TestUser.self))).id == 8)
    }

    @Test("Trusting any certificate is a choice by name, and works against a self-signed server")
    func unsafeTrust() async throws {
        #expect(TLSTrust.system.verifiesCertificates)
        let provider = try await tlsProvider(.selfSigned, trust: .unsafeTrustingAnyCertificate)
        #expect(try await provider.send(Request(RequestBuilder(method: .get, path: "/users/9"), receiving: .json(TestUser.self))).id == 9)
        let pinned = await #expect(throws: CourierError.self) {
            try Provider(baseURL: "https://127.0.0.1", trust: TLSTrust.unsafeTrustingAnyCertificate.pinning([try PublicKeyPin(TestPKI.shared.server.pin)]))
        }
        #expect(pinned?.kind == .tlsConfiguration)
    }

    @Test("A trust the transport cannot enforce throws when the provider is made, and fails every request after a transport change")
    func unenforceable() async throws {
        let urlSession = await #expect(throws: CourierError.self) {
            try Provider(baseURL: "https://127.0.0.1", trust: testTrust, transport: Provider.urlSessionTransport)
        }
        #expect(urlSession?.kind == .tlsConfiguration)
        #expect(urlSession?.message.contains("URLSession") == true)

        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: .courierDefault)
        defer { _ = client.shutdown() }
        let ownClientPins = await #expect(throws: CourierError.self) {
            try Provider(baseURL: "https://127.0.0.1", trust: testTrust.pinning([try PublicKeyPin(TestPKI.shared.server.pin)]), transport: HTTPClientTransport(client: client))
        }
        #expect(ownClientPins?.kind == .tlsConfiguration)
        #expect(ownClientPins?.message.contains("pins") == true)

        // Roots on a client of your own go with each request.
        let own = try Provider(baseURL: try await TLSTestServer.baseURL(.good), trust: testTrust, transport: HTTPClientTransport(client: client))
        #expect(try await own.send(Request(RequestBuilder(method: .get, path: "/users/10"), receiving: .json(TestUser.self))).id == 10)

        var switched = try await tlsProvider(.good)
        switched.transport = Provider.urlSessionTransport
        #expect(switched.trust == testTrust)
        let failed = await #expect(throws: CourierError.self) {
            try await switched.send(Request(RequestBuilder(method: .get, path: "/users/1"), receiving: .json(TestUser.self)))
        }
        #expect(failed?.kind == .tlsConfiguration)
    }

    @Test("Certificates, keys and pins that are not one are refused with the reason")
    func badInputs() throws {
        let notPEM = #expect(throws: CourierError.self) { try TLSCertificate(pem: Data("hello".utf8)) }
        #expect(notPEM?.kind == .tlsConfiguration)
        #expect(notPEM?.message.contains("BEGIN CERTIFICATE") == true)
        let keyAsCertificate = #expect(throws: CourierError.self) { try TLSCertificate(pem: TestPKI.shared.client.privateKeyPEMData) }
        #expect(keyAsCertificate?.message.contains("PRIVATE KEY") == true)
        let truncated = #expect(throws: CourierError.self) {
            try TLSCertificate(pem: Data(TestPKI.shared.root.certificatePEM.dropLast(30).utf8))
        }
        #expect(truncated?.message.contains("END CERTIFICATE") == true)
        let notDER = #expect(throws: CourierError.self) { try TLSCertificate(der: Data("-----BEGIN".utf8)) }
        #expect(notDER?.message.contains("DER") == true)
        let shortPin = #expect(throws: CourierError.self) { try PublicKeyPin("sha256/AAAA") }
        #expect(shortPin?.message.contains("32 bytes") == true)
        let notBase64 = #expect(throws: CourierError.self) { try PublicKeyPin("sha256/***") }
        #expect(notBase64?.message.contains("base64") == true)
        let noKey = #expect(throws: CourierError.self) {
            try ClientIdentity(certificateChainPEM: TestPKI.shared.client.certificatePEMData, privateKeyPEM: TestPKI.shared.client.certificatePEMData)
        }
        #expect(noKey?.message.contains("PRIVATE KEY") == true)
        let missingFile = #expect(throws: CourierError.self) { try TLSCertificate(contentsOf: URL(fileURLWithPath: "/nonexistent/root.pem")) }
        #expect(missingFile?.message.contains("/nonexistent/root.pem") == true)
        // DER and PEM of one certificate are the same certificate.
        let pem = try TLSCertificate(pem: TestPKI.shared.root.certificatePEMData)
        #expect(try TLSCertificate(der: Data(TestPKI.shared.root.certificateDER)) == pem)
        #expect(try TLSCertificate(pem: Data(pem.pem.utf8)) == pem)
    }
}

@Suite("HTTPS: connections, HTTP/2 and handshakes", .serialized, .timeLimit(.minutes(2)))
struct TLSConnectionTests {
    func connection(_ provider: Provider) async throws -> ConnectionSeen {
        try await provider.send(Request(RequestBuilder(method: .get, path: "/protocol"), receiving: .json(ConnectionSeen.self)))
    }

    /// Runs `body` with a provider on a client of its own, so that no other test's connection is
    /// in its pool.
    func withOwnClient(_ kind: TLSTestServer.Kind, _ body: (Provider) async throws -> Void) async throws {
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: .courierDefault)
        do {
            try await body(try Provider(baseURL: try await TLSTestServer.baseURL(kind), trust: testTrust, transport: HTTPClientTransport(client: client)))
        } catch {
            try await client.shutdown()
            throw error
        }
        try await client.shutdown()
    }

    @Test("Sequential calls reuse one connection: one handshake", arguments: [TLSTestServer.Kind.good, .http1Only])
    func handshakeReuse(kind: TLSTestServer.Kind) async throws {
        try await withOwnClient(kind) { provider in
            var seen: Set<String> = []
            for _ in 0..<10 { seen.insert(try await connection(provider).connection) }
            #expect(seen.count == 1)
        }
    }

    @Test("64 concurrent calls over HTTP/2 share one connection")
    func multiplexing() async throws {
        try await withOwnClient(.good) { provider in try await multiplexed(provider) }
    }

    func multiplexed(_ provider: Provider) async throws {
        _ = try await connection(provider)
        let seen = try await withThrowingTaskGroup(of: ConnectionSeen.self) { group in
            for _ in 0..<64 { group.addTask { try await self.connection(provider) } }
            return try await group.reduce(into: [ConnectionSeen]()) { $0.append($1) }
        }
        #expect(seen.count == 64)
        #expect(seen.allSatisfy { $0.http2 })
        #expect(Set(seen.map(\.connection)).count == 1)
    }

    @Test("No connection-specific header reaches an HTTP/2 server, whatever a modifier adds")
    func connectionHeaders() async throws {
        let provider = try await tlsProvider(.good).modifyRequests { request in
            for (name, value) in [("Connection", "keep-alive"), ("Keep-Alive", "timeout=5"), ("Upgrade", "websocket"), ("Proxy-Connection", "keep-alive"), ("Transfer-Encoding", "chunked")] {
                request.addHeader(HTTPField.Name(name)!, value: value)
            }
        }
        var builder = RequestBuilder(method: .post, path: "/echo/h2")
        builder.setBody(["a": 1])
        let echo = try await provider.echo(builder)
        #expect(echo.bodyText == #"{"a":1}"#)
        for name in ["connection", "keep-alive", "upgrade", "proxy-connection", "transfer-encoding"] {
            #expect(echo.header(name) == nil, "\(name) reached the server")
        }
    }

    @Test("Large uploads and downloads over HTTP/2")
    func largeBodies() async throws {
        var provider = try await tlsProvider(.good)
        provider.responseBodyLimit = 32 * 1024 * 1024
        let data = try await provider.send(Request(RequestBuilder(method: .get, path: "/bytes/\(8 * 1024 * 1024)"), receiving: .data))
        #expect(data == Pattern.data(count: 8 * 1024 * 1024))
        let upload = Pattern.data(count: 6 * 1024 * 1024)
        var builder = RequestBuilder(method: .post, path: "/digest")
        builder.setBody(upload)
        let digest = try await provider.send(Request(builder, receiving: .json(DigestReply.self)))
        var expected = Pattern.Digest()
        expected.add(upload)
        #expect(digest == DigestReply(count: expected.count, hash: expected.hash))
    }
}

@Suite("A refused connection fails at once", .timeLimit(.minutes(1)))
struct RefusedConnectionTests {
    @Test("Refused on a port nobody listens on: a transport failure well before the connect timeout", arguments: TransportKind.allCases)
    func refusedAtOnce(transport: TransportKind) async throws {
        // A port that was just free: bound, read, closed.
        let port = try await TestServer.freePort()
        var provider = Provider(baseURL: "http://127.0.0.1:\(port)", transport: transport.transport)
        provider.timeouts.connect = .seconds(30)
        let started = ContinuousClock.now
        let error = await #expect(throws: CourierError.self) {
            try await provider.send(Request(RequestBuilder(method: .get, path: "/users/1"), receiving: .json(TestUser.self)))
        }
        #expect(error?.kind == .transport)
        // The operating system refuses at once; only a client that tries again waits for the bound.
        #expect(ContinuousClock.now - started < .seconds(5))
    }
}

@Suite("HTTPS: redirects to plain HTTP", .timeLimit(.minutes(1)))
struct TLSRedirectTests {
    @Test("A redirect from https to http is refused unless allowed; when allowed, no credential, secret header or Secure cookie goes in the clear")
    func downgrade() async throws {
        let plain = try await TestServer.baseURL("/echo/landed")
        let path = "/redirect/302?to=" + (plain.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? plain)
        let jar = CookieJar()
        var provider = try await tlsProvider(.good).with(cookieJar: jar)
        _ = try await provider.send(Request(RequestBuilder(method: .get, path: "/secure-cookie"), receiving: .response))
        var builder = RequestBuilder(method: .get, path: path)
        builder.addHeader(.authorization, value: "Bearer secret-token")
        builder.addHeader(HTTPField.Name("X-Api-Key")!, value: "k")

        let refused = await #expect(throws: CourierError.self) { try await provider.send(Request(builder, receiving: .json(Echo.self))) }
        #expect(refused?.kind == .insecureRedirect)
        #expect(refused?.message.contains(plain) == true)
        #expect(refused?.message.contains("https://127.0.0.1") == true)

        provider.redirects = .follow(dropping: [HTTPField.Name("X-Api-Key")!], allowingInsecure: true)
        let landed = try await provider.send(Request(builder, receiving: .json(Echo.self)))
        #expect(landed.path == "/echo/landed")
        #expect(landed.header("authorization") == nil)
        #expect(landed.header("x-api-key") == nil)
        let cookies = landed.headerValues("cookie").joined(separator: "; ")
        #expect(!cookies.contains("secret=s1"))
        #expect(cookies.contains("plain=p1"))
    }
}

@Suite("HTTPS on URLSession", .timeLimit(.minutes(1)))
struct URLSessionTLSTests {
    @Test(
        "A certificate the system's roots do not trust is a TLS failure on URLSession too, its reason named",
        arguments: [
            (TLSTestServer.Kind.expired, TLSFailure.Reason.expired),
            (.notYetValid, .notYetValid),
            (.selfSigned, .selfSigned),
            (.unknownAuthority, .unknownAuthority),
            (.good, .unknownAuthority),
            (.noCommonVersion, .protocolMismatch),
        ]
    )
    func untrusted(kind: TLSTestServer.Kind, reason: TLSFailure.Reason) async throws {
        var provider = Provider(baseURL: try await TLSTestServer.baseURL(kind), transport: Provider.urlSessionTransport)
        provider.retryPolicy = .init(maxAttempts: 3)
        let error = await #expect(throws: CourierError.self) {
            try await provider.send(Request(RequestBuilder(method: .get, path: "/users/1"), receiving: .json(TestUser.self)))
        }
        #expect(error?.kind == .tls, "\(String(describing: error))")
        #expect(error?.tlsFailure?.reason == reason, "\(String(describing: error))")
        #expect(error?.tlsFailure?.host == "127.0.0.1")
        #expect((error?.attempts.count ?? 0) <= 1)
    }
}
