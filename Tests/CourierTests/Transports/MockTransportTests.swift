import Courier
import CourierTestSupport
@testable import CourierTesting
import Foundation
import Testing

@Suite("CourierTesting: the mock transport", .timeLimit(.minutes(2)))
struct MockTransportTests {
    @Test("Stubs answer by method and route, and requests are recorded")
    func stubs() async throws {
        let mock = MockTransport()
        mock.stub(.get, "/users/:id") { request in
            try .json(TestUser(id: Int(request.parameters["id"] ?? "") ?? -1, name: "stub"))
        }
        mock.stub(.post, "/todos") { _ in MockResponse(status: .created) }
        let api = LibraryAPI(provider: Provider(baseURL: "https://api.example.test/v2", transport: mock))
        #expect(try await api.user(id: 5) == TestUser(id: 5, name: "stub"))
        #expect(mock.requests.count == 1)
        #expect(mock.requests.first?.path == "/users/5")
        #expect(mock.requests.first?.operationID == "Library.user")
        #expect(mock.requests.first?.baseURL.absoluteString == "https://api.example.test/v2")
    }

    @Test("Recorded requests carry the query and body as sent")
    func recordsBodies() async throws {
        let echo = #"{"method":"","target":"","path":"","headers":[],"rawHeaderNames":[],"body":"","bodyIsEmpty":true}"#
        let mock = MockTransport { _ in .data(Data(echo.utf8), contentType: "application/json") }
        let api = LibraryAPI(provider: Provider(baseURL: "https://api.example.test", transport: mock))
        _ = try await api.createTodo(name: "n", isDone: false, tags: ["t"])
        _ = try await api.getTodos(username: "u", limit: 2, tags: [])
        let requests = mock.requests
        #expect(requests.map(\.method) == [.post, .get])
        #expect(String(decoding: requests[0].body ?? Data(), as: UTF8.self) == #"{"isDone":false,"name":"n","tags":["t"]}"#)
        #expect(requests[1].queryItems.map(\.name) == ["limit"])
        #expect(requests[1].queryItems.first?.value == "2")
    }

    @Test("Clearing the recorded requests keeps the stubs; later requests are recorded from the start")
    func clearRequests() async throws {
        let mock = MockTransport()
        mock.stub(.get, "/users/:id") { request in
            try .json(TestUser(id: Int(request.parameters["id"] ?? "") ?? -1, name: "stub"))
        }
        let api = LibraryAPI(provider: Provider(baseURL: "https://api.example.test", transport: mock))
        _ = try await api.user(id: 1)
        _ = try await api.user(id: 2)
        #expect(mock.requests.count == 2)
        mock.clearRequests()
        #expect(mock.requests.isEmpty)
        #expect(try await api.user(id: 3) == TestUser(id: 3, name: "stub"))
        #expect(mock.requests.map(\.path) == ["/users/3"])
    }

    @Test("An unmatched request throws unmocked, naming the request and the stubs")
    func unmatched() async throws {
        let mock = MockTransport()
        mock.stub(.get, "/a") { _ in MockResponse(status: .ok) }
        let provider = Provider(baseURL: "https://api.example.test", transport: mock)
        let error = await #expect(throws: CourierError.self) {
            try await provider.send(Request(RequestBuilder(method: .delete, path: "/b", operationID: "X.b"), receiving: .none))
        }
        #expect(error?.kind == .unmocked)
        #expect(error?.message.contains("DELETE /b") == true)
        #expect(error?.message.contains("GET /a") == true)
    }

    @Test("A stubbed error status becomes a status error")
    func stubbedStatus() async throws {
        let mock = MockTransport()
        mock.stub(.get, "/users/*") { _ in
            .data(Data(#"{"error":"gone"}"#.utf8), contentType: "application/json", status: .gone)
        }
        let api = LibraryAPI(provider: Provider(baseURL: "https://api.example.test", transport: mock))
        let error = await #expect(throws: CourierError.self) { try await api.user(id: 1) }
        #expect(error?.response?.statusCode == 410)
        #expect(error?.response?.bodyText == #"{"error":"gone"}"#)
    }
}
