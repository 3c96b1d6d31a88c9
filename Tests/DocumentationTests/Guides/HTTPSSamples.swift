import Courier
import CourierAsyncHTTPClient
import CourierTestSupport
import Foundation
import HTTPTypes
import Testing

/// The HTTPS article's samples, run against the suite's TLS servers with certificates made in
/// the test process and written to a temporary folder, as a user's would be on disk.
@Suite(.timeLimit(.minutes(1)))
struct HTTPSSampleRunTests {
    let folder: URL
    let rootFile: URL
    let chainFile: URL
    let keyFile: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appending(path: "courier-https-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let pki = TestPKI.shared
        rootFile = folder.appending(path: "root.pem")
        chainFile = folder.appending(path: "client.pem")
        keyFile = folder.appending(path: "client-key.pem")
        try pki.root.certificatePEMData.write(to: rootFile)
        try pki.client.certificatePEMData.write(to: chainFile)
        try pki.client.privateKeyPEMData.write(to: keyFile)
    }

    @Test func privateRoot() async throws {
        let server = try await TLSTestServer.baseURL(.good)
        // sample: https-private-root
        let root = try TLSCertificate(contentsOf: rootFile)
        let provider = try Provider(baseURL: server, trust: .only([root]))
        let user = try await provider.send(Request(.get, "/users/1", receiving: .json(TestUser.self)))
        // end sample
        #expect(user.id == 1)
    }

    @Test func pinning() async throws {
        let server = try await TLSTestServer.baseURL(.good)
        let serverPin = TestPKI.shared.server.pin
        let backupPin = TestPKI.shared.unknownRoot.pin
        let root = try TLSCertificate(contentsOf: rootFile)
        // sample: https-pinning
        let trust = TLSTrust.only([root]).pinning([
            try PublicKeyPin(serverPin),    // the key the server has today
            try PublicKeyPin(backupPin),    // the key its next certificate will have
        ])
        let provider = try Provider(baseURL: server, trust: trust)
        // end sample
        #expect(try await provider.send(Request(.get, "/users/2", receiving: .json(TestUser.self))).id == 2)
    }

    @Test func mutualTLS() async throws {
        let server = try await TLSTestServer.baseURL(.clientCertificateRequired)
        let root = try TLSCertificate(contentsOf: rootFile)
        // sample: https-client-identity
        let identity = try ClientIdentity(certificateChainFile: chainFile, privateKeyFile: keyFile)
        let provider = try Provider(baseURL: server, trust: TLSTrust.only([root]).presenting(identity))
        // end sample
        #expect(try await provider.send(Request(.get, "/users/3", receiving: .json(TestUser.self))).id == 3)
    }

    @Test func readingAFailure() async throws {
        let server = try await TLSTestServer.baseURL(.expired)
        let root = try TLSCertificate(contentsOf: rootFile)
        let provider = try Provider(baseURL: server, trust: .only([root]))
        var reported = ""
        // sample: https-failure
        do {
            _ = try await provider.send(Request(.get, "/users/1", receiving: .json(TestUser.self)))
        } catch {
            guard let failure = error.tlsFailure else { throw error }
            if failure.reason == .expired || failure.reason == .notYetValid {
                reported = "the certificate of \(failure.host) is out of date"
            } else if failure.reason == .pinMismatch {
                reported = "unexpected key: \(failure.presentedPins)"
            } else {
                reported = error.message
            }
        }
        // end sample
        #expect(reported == "the certificate of 127.0.0.1 is out of date")
    }

    @Test func insecureRedirects() async throws {
        let server = try await TLSTestServer.baseURL(.good)
        let root = try TLSCertificate(contentsOf: rootFile)
        // sample: https-redirects
        var provider = try Provider(baseURL: server, trust: .only([root]))
        provider.redirects = .follow(allowingInsecure: true)   // https → http, credentials still dropped
        // end sample
        #expect(provider.redirects.allowsInsecureRedirects)
    }

    @Test func proxies() async throws {
        let server = try await TLSTestServer.baseURL(.good)
        let root = try TLSCertificate(contentsOf: rootFile)
        let relay = try await TestProxy.start(requiring: "Basic " + Data("ada:secret".utf8).base64EncodedString())
        let proxyPort = relay.port
        // sample: https-proxy
        let proxy = Proxy.http(host: "127.0.0.1", port: proxyPort, username: "ada", password: "secret")
            .excluding(["localhost", ".internal.example.com"])
        var provider = try Provider(baseURL: server, trust: .only([root])).with(proxy: proxy)
        // end sample
        #expect(try await provider.send(Request(.get, "/users/4", receiving: .json(TestUser.self))).id == 4)
        #expect(relay.requests.count == 1)
        let environment = ["HTTPS_PROXY": "http://ada:secret@127.0.0.1:\(proxyPort)"]
        // sample: https-proxy-environment
        if let proxy = try Proxy.fromEnvironment(environment) {   // HTTPS_PROXY, NO_PROXY…
            provider = try provider.with(proxy: proxy)
        }
        // end sample
        #expect(provider.proxy?.port == proxyPort)
    }
}
