import Courier
import CourierTestSupport
import CourierTesting
import Foundation
import Testing

@API
@Mock
protocol DefectProbe {
    @GET("/echo/file/:name.json")
    func file(name: String) async throws -> Echo

    @GET("/echo/users/:id")
    func user(id: String) async throws -> Echo

    @GET("/echo/trace")
    func trace(xRequestID: Header<String>) async throws -> Echo

    @GET("/echo/find/:id")
    func find(id: Int) async throws -> Echo

    @GET("/echo/find/:id")
    func find(id: String) async throws -> Echo
}

/// Each defect that Papyrus has, as a check that fails on Papyrus' behaviour.
@Suite("Papyrus' defects are not repeated", .timeLimit(.minutes(2)))
struct PapyrusDefectsTests {
    func probe() async throws -> DefectProbeAPI { DefectProbeAPI(provider: try await TestServer.provider()) }

    @Test("A path parameter followed by a suffix is substituted (Papyrus leaves `:name.json` in the path)")
    func suffix() async throws {
        #expect(try await probe().file(name: "report").path == "/echo/file/report.json")
    }

    @Test("Path values are percent-encoded (Papyrus sends them raw)")
    func encoded() async throws {
        #expect(try await probe().user(id: "../admin?x#y").path == "/echo/users/..%2Fadmin%3Fx%23y")
    }

    @Test("A header name can be spelled exactly (Papyrus sends `X-Request-Id`)")
    func exactHeaderName() async throws {
        let seen = try await probe().trace(xRequestID: "r-9")
        #expect(seen.rawHeaderNames.contains("X-Request-ID"))
        #expect(seen.header("x-request-id") == "r-9")
    }

    @Test("Generated mocks of overloaded functions do not collide")
    func overloadedMocks() async throws {
        let mock = DefectProbeMock()
        mock.mockFindIdInt { _ in Echo(method: "int", target: "", path: "", query: nil, headers: [], rawHeaderNames: [], body: "", bodyIsEmpty: true) }
        mock.mockFindIdString { _ in Echo(method: "string", target: "", path: "", query: nil, headers: [], rawHeaderNames: [], body: "", bodyIsEmpty: true) }
        #expect(try await mock.find(id: 1).method == "int")
        #expect(try await mock.find(id: "1").method == "string")
    }

}

/// Papyrus makes nothing `Sendable`; here, this only compiles if Courier's public types and the
/// generated ones are. It is a compile-time check, so it is not counted as a test.
enum SendableConformances {
    static func requireSendable<T: Sendable>(_: T.Type) {}

    static func check() {
        requireSendable(Provider.self)
        requireSendable(RequestBuilder.self)
        requireSendable(Request<TestUser>.self)
        requireSendable(RawRequest.self)
        requireSendable(Response.self)
        requireSendable(CourierError.self)
        requireSendable(KeyMapping.self)
        requireSendable(Part.self)
        requireSendable(MockTransport.self)
        requireSendable(DefectProbeAPI.self)
        requireSendable(DefectProbeMock.self)
    }
}
