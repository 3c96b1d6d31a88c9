import Courier
import CourierTestSupport
import Foundation
import Testing

@API
protocol KeyedEcho {
    @GET("/echo/keys")
    func keyed(apiKey `api_key`: Header<String>, trace `X_Trace_id`: Header<String>, requestID: Header<String>) async throws -> Echo
}

@Suite("@API header names: derived from a Swift name, or exactly as written in backticks", .timeLimit(.minutes(1)))
struct HeaderNameSpellingTests {
    @Test("A name in backticks goes out exactly as written; a plain one in header case", arguments: TransportKind.allCases)
    func spelling(transport: TransportKind) async throws {
        let api = KeyedEchoAPI(provider: try await transport.provider())
        let echo = try await api.keyed(apiKey: "k", trace: "t", requestID: "r")
        #expect(echo.rawHeaderNames.contains("api_key") && echo.header("api_key") == "k", "\(echo.rawHeaderNames)")
        #expect(echo.rawHeaderNames.contains("X_Trace_id"), "\(echo.rawHeaderNames)")
        #expect(echo.rawHeaderNames.contains("Request-ID"), "\(echo.rawHeaderNames)")
        #expect(!echo.rawHeaderNames.contains("Api-Key"))
    }
}
