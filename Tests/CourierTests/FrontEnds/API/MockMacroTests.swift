import Courier
import CourierTestSupport
import CourierTesting
import Foundation
import Testing

struct Repository: Codable, Equatable, Sendable {
    var name: String
}

@API
@Mock
protocol GitHub {
    @GET("/users/:username/repos")
    func getRepositories(username: String) async throws -> [Repository]

    @GET("/repos/:id")
    func find(id: Int) async throws -> Repository

    @GET("/repos/:name")
    func find(name: String) async throws -> Repository

    @GET("/search")
    func search(q: String) async throws -> [Repository]

    @GET("/search")
    func search(q: Int) async throws -> [Repository]

    @DELETE("/cache")
    func clear() async throws

    @GET("/user")
    func user(completion: @escaping (Result<TestUser, any Error>) -> Void)

    @GET("/raw")
    func raw(completion: @escaping (Response) -> Void)
}

/// The kind of code a user tests with a mock: it only knows the protocol.
struct CounterService {
    let github: any GitHub

    func countRepositories(of username: String) async throws -> Int {
        try await github.getRepositories(username: username).count
    }
}

@Suite("@Mock: generated test doubles", .timeLimit(.minutes(2)))
struct MockMacroTests {
    @Test("A setter answers the endpoint and receives the arguments")
    func answers() async throws {
        let mock = GitHubMock()
        let seen = Log()
        mock.mockGetRepositories { username in
            seen.append(username)
            return [Repository(name: "courier"), Repository(name: "hummingbird")]
        }
        let count = try await CounterService(github: mock).countRepositories(of: "ada")
        #expect(count == 2)
        #expect(seen.entries == ["ada"])
    }

    @Test("Overloaded endpoints have setters that do not collide")
    func overloads() async throws {
        let mock = GitHubMock()
        mock.mockFindId { id in Repository(name: "by id \(id)") }
        mock.mockFindName { name in Repository(name: "by name \(name)") }
        mock.mockSearchQString { q in [Repository(name: "text \(q)")] }
        mock.mockSearchQInt { q in [Repository(name: "number \(q)")] }
        #expect(try await mock.find(id: 1).name == "by id 1")
        #expect(try await mock.find(name: "x").name == "by name x")
        #expect(try await mock.search(q: "a") == [Repository(name: "text a")])
        #expect(try await mock.search(q: 2) == [Repository(name: "number 2")])
    }

    @Test("An endpoint without an answer throws unmocked, naming it")
    func unmocked() async throws {
        let error = await #expect(throws: CourierError.self) { try await GitHubMock().clear() }
        #expect(error?.kind == .unmocked)
        #expect(error?.operationID == "GitHub.clear")
        #expect(error?.message.contains("GitHub.clear") == true)
    }

    @Test("A handler's error reaches the caller unchanged")
    func throwingHandler() async throws {
        struct Offline: Error {}
        let mock = GitHubMock()
        mock.mockClear { throw Offline() }
        await #expect(throws: Offline.self) { try await mock.clear() }
    }

    @Test("Completion-handler endpoints are mocked with the same shape")
    func completionHandlers() async throws {
        let mock = GitHubMock()
        mock.mockUser { TestUser(id: 1, name: "mocked") }
        let user = try await withCheckedThrowingContinuation { continuation in
            mock.user { continuation.resume(with: $0) }
        }
        #expect(user.name == "mocked")

        let response = await withCheckedContinuation { continuation in
            mock.raw { continuation.resume(returning: $0) }
        }
        #expect(response.statusCode == nil)
        #expect(response.error?.kind == .unmocked)
    }

    @Test("A mock is Sendable and can be set and called from many tasks at once")
    func concurrentUse() async throws {
        let mock = GitHubMock()
        mock.mockFindId { id in Repository(name: "\(id)") }
        let names = try await withThrowingTaskGroup(of: String.self) { group in
            for id in 0..<200 {
                group.addTask {
                    if id % 10 == 0 { mock.mockFindName { name in Repository(name: name) } }
                    return try await mock.find(id: id).name
                }
            }
            return try await group.reduce(into: Set<String>()) { $0.insert($1) }
        }
        #expect(names.count == 200)
    }

    @Test("The generated client and the mock both serve code written against the protocol")
    func bothConform() async throws {
        let transport = MockTransport()
        transport.stub(.get, "/users/:username/repos") { request in
            try .json([Repository(name: request.parameters["username"] ?? "?")])
        }
        let client = GitHubAPI(provider: Provider(baseURL: "https://api.example.test", transport: transport))
        let mock = GitHubMock()
        mock.mockGetRepositories { username in [Repository(name: username), Repository(name: username)] }
        #expect(try await CounterService(github: client).countRepositories(of: "ada") == 1)
        #expect(try await CounterService(github: mock).countRepositories(of: "ada") == 2)
        #expect(transport.requests.map(\.path) == ["/users/ada/repos"])
    }
}
