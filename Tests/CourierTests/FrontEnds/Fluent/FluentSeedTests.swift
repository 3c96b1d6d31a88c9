import Courier
import CourierTestSupport
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

struct CSVError: Error {}

@Suite("The fluent builder: what Requests' users expect", .timeLimit(.minutes(1)))
struct FluentSeedTests {
    @Test("httpRequest(for:) is the request as sent: scheme, authority and the base path included")
    func builtRequest() async throws {
        let provider = try await TestServer.provider("/api/v1")
        let request = Request(.get, "/users/:id", receiving: .json(TestUser.self)).parameter("id", 42).credentials(.bearer("t"))
        let (head, body) = try await provider.httpRequest(for: request)
        #expect(head.scheme == "http")
        #expect(head.authority == "127.0.0.1:\(try await TestServer.port())")
        #expect(head.path == "/api/v1/users/42")
        #expect(head.headerFields[.authorization] == "Bearer t")
        #expect(head.headerFields[.accept] == "application/json")
        #expect(body == nil)
        let urlRequest = try await provider.urlRequest(for: request)
        #expect(urlRequest.url?.absoluteString == "\(try await TestServer.baseURL())/api/v1/users/42")

        // A base path is kept as it goes on the wire, still percent-encoded; IPv6 hosts keep their brackets.
        let encoded = Provider(baseURL: "http://[::1]:8080/my%20api")
        let (encodedHead, _) = try await encoded.httpRequest(for: Request(.get, "/users", receiving: .none))
        #expect(encodedHead.authority == "[::1]:8080")
        #expect(encodedHead.path == "/my%20api/users")
    }

    @Test("A fluent request streams and downloads with its authentication and timeout", arguments: TransportKind.allCases)
    func streamKeepsEverything(transport: TransportKind) async throws {
        let provider = try await transport.provider()
        let base = Request(.get, "/echo/stream", receiving: .none).credentials(.bearer("secret")).timeout(.seconds(30))
        let streamed = try await provider.send(base.receiving(.stream))
        let echo = try JSONDecoder().decode(Echo.self, from: try await streamed.collect(upTo: 1 << 20))
        #expect(echo.header("authorization") == "Bearer secret")

        let file = FileManager.default.temporaryDirectory.appendingPathComponent("courier-fluent-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: file) }
        _ = try await provider.download(base.receiving(.stream), to: file)
        #expect(try JSONDecoder().decode(Echo.self, from: Data(contentsOf: file)).header("authorization") == "Bearer secret")

        let slow = Request(.get, "/slow", receiving: .none).credentials(.bearer("secret")).timeout(.milliseconds(300))
        let error = await #expect(throws: CourierError.self) { try await provider.send(slow.receiving(.stream)) }
        #expect(error?.kind == .timeout)
    }

    @Test("A custom body provider can throw: the request fails as an encoding error and is never sent")
    func throwingBodyProvider() async throws {
        let csv = BodyContent { request in
            throw CSVError()
        }
        let recording = RecordingTransport()
        let provider = Provider(baseURL: "http://127.0.0.1:1", transport: recording)
        let error = await #expect(throws: CourierError.self) {
            try await provider.send(Request(.post, "/import", receiving: .none).body(csv))
        }
        #expect(error?.kind == .encoding)
        #expect(error?.underlyingError is CSVError)
        #expect(recording.count == 0)
    }

    @Test("validate, beforeSending and accepting on a fluent request, kept across receiving")
    func ownChecksAndHooks() async throws {
        let provider = try await TestServer.provider()
        let request = Request(.get, "/echo/hooks", receiving: .none)
            .beforeSending { raw in raw.headers[HTTPField.Name("X-Hooked")!] = raw.path }
            .validating { response in
                guard response.headers[.contentType] == "application/json" else { throw CSVError() }
            }
        let echo = try await provider.send(request.receiving(.json(Echo.self).accepting("application/vnd.courier+json")))
        #expect(echo.header("x-hooked") == "/echo/hooks")
        #expect(echo.header("accept") == "application/vnd.courier+json")

        let refused = await #expect(throws: CourierError.self) {
            try await provider.send(Request(.get, "/text", receiving: .text).validating { _ in throw CSVError() })
        }
        #expect(refused?.kind == .validation)
        #expect(refused?.stage?.contains("FluentSeedTests.swift") == true)
        let failingHook = await #expect(throws: CourierError.self) {
            try await provider.send(request.beforeSending { _ in throw CSVError() })
        }
        #expect(failingHook?.kind == .modifier)
        #expect(failingHook?.underlyingError is CSVError)
    }
}
