import Courier
import Testing

@API @Mock
protocol RepositoryPages {
    @GET("/users/:username/repos")
    func getRepositories(username: String) async throws -> [Repository]

    @GET("/users/:username/repos")
    func getRepositories(username: String, page: Int) async throws -> [Repository]
}

@Suite("Mock setters for overloads in Papyrus' spelling", .timeLimit(.minutes(2)))
struct PapyrusMockSetterTests {
    @Test("mockGetRepositories is overloaded by closure type, each overload answering its own endpoint")
    func plainSetters() async throws {
        let mock = RepositoryPagesMock()
        mock.mockGetRepositories { (username: String) in [Repository(name: "\(username)-all")] }
        mock.mockGetRepositories { (username: String, page: Int) in [Repository(name: "\(username)-\(page)")] }
        #expect(try await mock.getRepositories(username: "ada") == [Repository(name: "ada-all")])
        #expect(try await mock.getRepositories(username: "ada", page: 2) == [Repository(name: "ada-2")])
        // The suffixed names still set the same endpoints.
        mock.mockGetRepositoriesUsernamePage { username, page in [Repository(name: "\(username)/\(page)")] }
        #expect(try await mock.getRepositories(username: "ada", page: 3) == [Repository(name: "ada/3")])
        #expect(try await mock.getRepositories(username: "ada") == [Repository(name: "ada-all")])
    }
}
