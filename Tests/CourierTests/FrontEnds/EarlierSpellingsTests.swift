@testable import Courier
import CourierTestSupport
import CourierTesting
import Foundation
import HTTPTypes
import Testing

/// An endpoint written for the last release: its hook named `intercept(request:)`, its retry
/// policy a static property.
struct LastReleaseEndpoint: Endpoint {
    typealias Response = String
    static let retryPolicy: RetryPolicy? = RetryPolicy(maxAttempts: 2, jitter: .none)
    var name: String
    func makeRequest() -> RequestBuilder { RequestBuilder(method: .get, path: "/script/\(name)") }
    func intercept(request: inout RawRequest) throws {
        request.headers[HTTPField.Name("X-Old-Hook")!] = "called"
    }
}

@Suite("Endpoints written for the last release keep working: deprecated, not dropped", .timeLimit(.minutes(1)))
struct EarlierSpellingsTests {
    @Test("intercept(request:) is still called and a static retryPolicy still read", arguments: TransportKind.allCases)
    func lastRelease(transport: TransportKind) async throws {
        var provider = try await transport.faultProvider(idle: .seconds(5))
        provider.clock = RecordingClock()
        let name = scriptName("last-release", transport)
        FaultServer.script(name, [.answer(status: 503), .answer(status: 200, body: "ok")])
        #expect(try await provider.send(LastReleaseEndpoint(name: name)) == "ok")
        let arrivals = FaultServer.arrivals(ofScript: name)
        #expect(arrivals.count == 2)
        #expect(arrivals.allSatisfy { $0.header("X-Old-Hook") == "called" })
    }
}
