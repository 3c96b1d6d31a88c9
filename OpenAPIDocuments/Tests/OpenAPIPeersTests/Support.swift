import Courier
import OpenAPIPeerServer
import Testing

/// The transports each peer is called on: the platform's default (AsyncHTTPClient on Linux) and
/// URLSession.
enum TransportKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case asyncHTTPClient, urlSession
    var testDescription: String { rawValue }
}

/// A provider for the document in Peers/`folder`, whose server swift-openapi-generator wrote: an
/// implementation independent of courier-openapi answers the client courier-openapi wrote. The
/// connect bound allows for a loaded machine.
func peerProvider(_ transport: TransportKind, _ folder: String) async throws -> Provider {
    var provider = Provider(baseURL: "http://127.0.0.1:\(try await OpenAPIPeerServer.port())/peers/\(folder)")
    if transport == .urlSession { provider.transport = Provider.urlSessionTransport }
    provider.retryPolicy = .disabled
    provider.timeouts.connect = .seconds(30)
    return provider
}
