import Courier
import CourierTestSupport
import Foundation
import Testing

@Suite("Bad caller input is refused before anything is sent", .timeLimit(.minutes(1)))
struct CallerInputTests {
    @Test(
        "A base URL with whitespace or a control character is refused, naming it",
        arguments: ["http://127.0.0.1:1/a b", "http://127.0.0.1:1/a\tb", "http://127.0.0.1:1/a\r\nX: y", "http://127.0.0.1:1/a\0b", " http://127.0.0.1:1", "http://127.0.0.1:1\n"]
    )
    func unsafeBaseURL(value: String) async throws {
        let transport = RecordingTransport()
        let provider = Provider(baseURL: value, transport: transport)
        #expect(provider.baseURL == nil)
        let error = await #expect(throws: CourierError.self) {
            try await provider.send(Request(.get, "/echo", receiving: .none))
        }
        #expect(error?.kind == .invalidRequest)
        #expect(error?.message.contains("whitespace or a control character") == true)
        #expect(transport.count == 0)
    }

    @Test("A request target longer than the provider allows is refused on every transport", arguments: TransportKind.allCases)
    func oversizedTarget(transport: TransportKind) async throws {
        let provider = try await transport.provider()
        let huge = String(repeating: "a", count: 1 << 20)
        let error = await #expect(throws: CourierError.self) {
            try await provider.send(Request(.get, "/echo/long", receiving: .none).query("q", huge))
        }
        #expect(error?.kind == .invalidRequest)
        #expect(error?.message.contains("\(provider.maxRequestTargetLength)") == true)

        // Just under the limit goes out and reaches the server.
        var roomy = provider
        roomy.maxRequestTargetLength = 64 * 1024
        let fits = String(repeating: "b", count: 30_000)
        let echo = try await roomy.send(Request(.get, "/echo/long", receiving: .json(Echo.self)).query("q", fits))
        #expect(echo.query == "q=" + fits)
    }
}
