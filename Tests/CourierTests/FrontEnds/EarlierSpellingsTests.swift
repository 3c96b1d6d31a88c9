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

/// A fluent API written with the earlier names, which Requests also uses: `RequestProviding`,
/// `BodyProvider`, `AuthenticationProvider` and a request's `authenticated(with:)`.
@available(*, deprecated, message: "uses the earlier names on purpose")
struct EarlierNamesShelf: RequestProviding {
    let baseURL: URL

    static func signature(_ key: String) -> AuthenticationProvider {
        AuthenticationProvider { $0.setHeader("X-Signature", value: key) }
    }

    func donate(_ title: String) -> Request<Echo> {
        let body: BodyProvider = .text(title)
        return post(body, to: "/echo/donate").receiving(.json(Echo.self)).authenticated(with: Self.signature("k"))
    }
}

@Suite("Code written for the last release keeps working: deprecated, not dropped", .timeLimit(.minutes(1)))
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

    @available(*, deprecated, message: "uses the earlier names on purpose")
    @Test("RequestProviding, BodyProvider, AuthenticationProvider and authenticated(with:) still compile and send the same request")
    func earlierNames() async throws {
        let shelf = EarlierNamesShelf(baseURL: try #require(URL(string: try await TestServer.baseURL())))
        let echo = try await shelf.send(shelf.donate("Dune"))
        #expect(echo.method == "POST")
        #expect(Data(base64Encoded: echo.body) == Data("Dune".utf8))
        #expect(echo.header("x-signature") == "k")
    }
}
