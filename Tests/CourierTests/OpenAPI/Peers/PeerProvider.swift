import Courier
import OpenAPIPeerServer

/// A provider for the document in Tests/OpenAPIPeers/`folder`, whose server swift-openapi-generator
/// wrote: an implementation independent of courier-openapi answers the client courier-openapi
/// wrote. The connect bound allows for a machine slowed by ThreadSanitizer and the rest of the
/// suite.
func peerProvider(_ transport: TransportKind, _ folder: String) async throws -> Provider {
    var provider = Provider(baseURL: "http://127.0.0.1:\(try await OpenAPIPeerServer.port())/peers/\(folder)")
    provider.transport = transport.transport
    provider.retryPolicy = .disabled
    provider.timeouts.connect = .seconds(30)
    return provider
}
