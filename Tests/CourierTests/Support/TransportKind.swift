import AsyncHTTPClient
import Courier
import CourierAsyncHTTPClient
import CourierTestSupport
import Foundation
import OpenAPIRuntime
import Testing

/// The transports every behaviour check runs on: URLSession and AsyncHTTPClient over plain HTTP
/// (``allCases``), and AsyncHTTPClient over HTTPS, HTTP/2 by ALPN, against the TLS test server.
enum TransportKind: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case urlSession
    case asyncHTTPClient
    case asyncHTTPClientHTTPS

    /// The two transports over plain HTTP.
    static var allCases: [TransportKind] { [.urlSession, .asyncHTTPClient] }
    /// Both transports over plain HTTP, and AsyncHTTPClient over HTTPS and HTTP/2. URLSession on
    /// Linux cannot trust the suite's root (FoundationNetworking always uses the system's bundle).
    static let withHTTPS: [TransportKind] = allCases + [.asyncHTTPClientHTTPS]

    var testDescription: String { rawValue }

    /// Whether requests go over HTTP/2, where header names arrive lower-cased.
    var isHTTP2: Bool { self == .asyncHTTPClientHTTPS }

    /// One AsyncHTTPClient for the test process, sized like a configured production pool.
    static let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: .courierDefault)

    /// The transport as `Provider` users get it: AsyncHTTPClient's process-wide one (so that a
    /// provider's timeouts apply) or Courier's URLSession transport.
    var transport: any ClientTransport {
        self == .urlSession ? Provider.urlSessionTransport : HTTPClientTransport.shared
    }

    func provider(_ path: String = "", keyMapping: KeyMapping = .useDefaultKeys) async throws -> Provider {
        var provider: Provider
        if self == .asyncHTTPClientHTTPS {
            provider = try Provider(baseURL: try await TLSTestServer.baseURL(.good, path), trust: testTrust, transport: transport)
            provider.keyMapping = keyMapping
        } else {
            provider = try await TestServer.provider(path, keyMapping: keyMapping)
            provider.transport = transport
        }
        provider.responseBodyLimit = 128 * 1024 * 1024
        return provider
    }
}

/// The suite's trust: the test root instead of the system's.
let testTrust = TLSTrust.only([try! TLSCertificate(pem: TestPKI.shared.root.certificatePEMData)])

struct DigestReply: Decodable, Equatable {
    var count: Int
    var hash: String
}

/// Runs `body` with an AsyncHTTPClient of its own, sized as Courier's clients are, and shuts it
/// down afterwards, also when `body` throws: a test whose server closes connections on purpose
/// keeps them out of the process-wide pool other suites share.
func withOwnClient<T>(_ body: (HTTPClient) async throws -> T) async throws -> T {
    let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: .courierDefault)
    let result: Result<T, any Error>
    do {
        result = .success(try await body(client))
    } catch {
        result = .failure(error)
    }
    try await client.shutdown()
    return try result.get()
}
