import Courier
import CourierTestSupport
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import OpenAPIURLSession
import Testing

/// Why Courier has its own URLSession transport, and what it adds.
@Suite("Courier's URLSession transport", .serialized, .timeLimit(.minutes(2)))
struct URLSessionTransportTests {
    #if canImport(FoundationNetworking)
    @Test("The shipped OpenAPIURLSession transport sends a POST twice when the server closes a reused connection; Courier's sends it once")
    func shippedTransportResendsPost() async throws {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 2
        let shipped = URLSessionTransport(configuration: .init(session: URLSession(configuration: configuration)))
        let base = try await FaultServer.baseURL()
        for (name, transport, expected) in [("shipped", shipped as any ClientTransport, 2), ("courier", Provider.urlSessionTransport, 1)] {
            let provider = Provider(baseURL: base, transport: transport)
            let target = "/close-after-read?case=resend-\(name)"
            #expect(try await provider.send(Request(.get, "/ok", receiving: .text)) == "ok")
            let outcome = await fault(within: .seconds(20)) {
                _ = try await provider.send(Request(.post, target, receiving: .none).body(.text("order=1")))
            }
            #expect(outcome.error != nil, "\(name)")
            #expect(FaultServer.arrivals(target) == expected, "\(name): \(FaultServer.arrivals(target)) arrivals")
        }
    }
    #endif

    @Test("Conflicting Content-Length values are refused with both values named")
    func conflictingLength() async throws {
        let provider = Provider(baseURL: try await FaultServer.baseURL(), transport: Provider.urlSessionTransport)
        let outcome = await fault(within: .seconds(10)) { _ = try await provider.send(Request(.get, "/conflicting-length", receiving: .text)) }
        #expect(outcome.error?.kind == .transport)
        #expect(outcome.error?.underlyingError is ConflictingContentLength, "\(String(describing: outcome.error))")
    }
}
