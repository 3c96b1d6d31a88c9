// Every code example of Papyrus' README, compiled against Courier. Each sits in its own namespace
// so that examples reusing a name (`Users`, `GitHub`) do not clash; inside, the code is as the
// README writes it, with `import Courier` and `CourierError` for `PapyrusError`. Where the README's
// own code cannot compile anywhere (an async call without `await`, a type it names differently two
// lines later, `...` placeholders), the smallest fix is made and marked `// README fix:`.
import Courier
import Foundation
import XCTest

struct User: Codable, Sendable { var id: Int; var name: String }
struct Todo: Codable, Sendable {
    let name: String
    let isDone: Bool
    let tags: [String]
}
struct Repository: Codable, Sendable { var name: String }
struct Transaction: Codable, Sendable { var merchant: String }
struct Post: Codable, Sendable { var id: Int }

enum Introduction {
    @API
    @Authorization(.bearer("<my-auth-token>"))
    protocol Users {
        @GET("/user")
        func getUser() async throws -> User

        @POST("/user")
        func createUser(email: String, password: String) async throws -> User

        @GET("/users/:username/todos")
        func getTodos(username: String) async throws -> [Todo]
    }

    static func run() async throws -> [Todo] {
        let provider = Provider(baseURL: "https://api.example.com/")
        let users: Users = UsersAPI(provider: provider)
        let todos = try await users.getTodos(username: "joshuawright11")
        return todos
    }
}

enum MethodAndPath {
    @API
    protocol Transfers {
        @DELETE("/transfers/:id")
        func delete(id: Int) async throws
    }

    // The README's prose names the custom-method attribute `@Http(path:method:)`.
    @API
    protocol Cache {
        @Http(path: "/cache/:key", method: "PURGE")
        func purge(key: String) async throws
    }
}

enum ConfiguringTheURL {
    @API
    protocol Repositories {
        @GET("/users/:username/repos/:id")
        func getRepository(username: Path<String>, id: Path<Int>) async throws -> [Repository]
    }

    @API
    protocol InferredRepositories {
        @GET("/users/:username/repos/:id")
        func getRepository(username: String, id: Int) async throws -> [Repository]
    }
}

enum QueryParameters {
    @API
    protocol Explicit {
        @GET("/transactions")
        func getTransactions(merchant: Query<String>) async throws -> [Transaction]
    }

    @API
    protocol Static {
        @GET("/transactions?merchant=Apple")
        func getTransactions() async throws -> [Transaction]
    }

    @API
    protocol Inferred {
        @GET("/transactions")
        func getTransactions(merchant: String) async throws -> [Transaction]
    }
}

enum Headers {
    @API
    protocol FunctionScope {
        @Headers(["Cache-Control": "max-age=86400"])
        @GET("/user")
        func getUser() async throws -> User
    }

    @API
    @Headers(["X-Client-Version": "1.2.3"])
    protocol Users {
        @GET("/user")
        func getUser() async throws -> User

        @PATCH("/user/:id")
        func updateUser(id: Int, name: String) async throws
    }

    @Authorization(.basic(username: "joshuawright11", password: "P@ssw0rd"))
    protocol BasicUsers {
        // README fix: `...` stands for the protocol's requirements.
        func getUser() async throws -> User
    }

    @API
    protocol Accounts {
        @GET("/accounts")
        func getRepository(customHeader: Header<String>) async throws
    }
}

enum Bodies {
    @API
    protocol WithBody {
        @POST("/todo")
        func createTodo(todo: Body<Todo>) async throws
    }

    @API
    protocol WithFields {
        @POST("/todo")
        func createTodo(name: Field<String>, isDone: Field<Bool>, tags: Field<[String]>) async throws
    }

    @API
    protocol InferredFields {
        @POST("/todo")
        func createTodo(name: String, isDone: Bool, tags: [String]) async throws
    }

    @API
    protocol FormFunction {
        @URLForm
        @POST("/todo")
        func createTodo(name: String, isDone: Bool, tags: [String]) async throws
    }

    @API
    protocol Attachments {
        @Multipart
        @POST("/attachments")
        func uploadAttachments(file1: Part, file2: Part) async throws
    }

    @API
    @URLForm
    protocol Todos {
        @POST("/todo")
        func createTodo(name: String, isDone: Bool, tags: [String]) async throws

        @PATCH("/todo/:id")
        func updateTodo(id: Int, name: String, isDone: Bool, tags: [String]) async throws
    }
}

extension JSONEncoder {
    static var iso8601: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }
}

enum CustomEncoders {
    @JSON(encoder: .iso8601)
    protocol Todos {
        // README fix: `...` stands for the protocol's requirements.
        func list() async throws -> [Todo]
    }

    @API
    @JSON(encoder: .iso8601)
    protocol DatedTodos {
        @POST("/todos")
        func create(due: Date) async throws
    }
}

enum Responses {
    @API
    protocol Users {
        @GET("/user")
        func getUser() async throws -> User
    }

    @API
    protocol Bytes {
        @GET("/bytes")
        func getBytes() async throws -> Data
    }

    @API
    protocol OptionalBytes {
        @GET("/bytes")
        func getBytes() async throws -> Data?
    }

    @API
    protocol Logout {
        @DELETE("/logout")
        func logout() async throws
    }

    @API
    protocol RawUsers {
        @GET("/user")
        func getUser() async throws -> Response
    }

    static func raw(users: RawUsers) async throws {
        let res = try await users.getUser()
        if res.error == nil {
            print("The response was successful!")
        }
    }

    @API
    protocol TupleUsers {
        @GET("/user")
        func getUser() async throws -> (User, Response)
    }

    static func tuple(users: TupleUsers) async throws {
        let (user, res) = try await users.getUser()
        print("The response status code was: \(res.statusCode!)")
        _ = user
    }
}

enum ErrorHandling {
    @API
    protocol Users {
        @GET("/user")
        func getUser() async throws -> User
    }

    static func run(users: Users) async {
        do {
            let user = try await users.getUser()
            _ = user
        } catch {
            if let error = error as? CourierError {
                print("Error making request \(String(describing: error.request)). Response was: \(String(describing: error.response))")
            }
        }
    }
}

enum Configuration {
    @API
    protocol Posts {
        @GET("/posts/:postId")
        func getPost(id postId: Int) async throws -> Post
    }

    @API
    @KeyMapping(.snakeCase)
    protocol Todos {
        // README fix: `...` stands for the protocol's requirements.
        @GET("/todos")
        func list() async throws -> [Todo]
    }

    static func modifiers() {
        let provider = Provider(baseURL: "https://sandbox.plaid.com")
            .modifyRequests { (req: inout RequestBuilder) in
                req.addField("client_id", value: "<client-id>")
                req.addField("secret", value: "<secret>")
            }
        _ = provider
    }

    static func interceptors() {
        let provider = Provider(baseURL: "http://localhost:3000")
            .intercept { req, next in
                let start = Date()
                let res = try await next(req)
                let elapsedTime = String(format: "%.2fs", Date().timeIntervalSince(start))
                // Got a 200 for GET /users after 0.45s
                print("Got a \(res.statusCode!) for \(req.method) \(req.url!.relativePath) after \(elapsedTime)")
                return res
            }
        _ = provider
    }

    struct LoggingInterceptor: Interceptor {
        func intercept(req: RawRequest, next: Next) async throws -> Response { try await next(req) }
    }

    struct ClientIDModifier: RequestModifier {
        func modify(req: inout RequestBuilder) throws { req.addHeader("X-Client-ID", value: "1") }
    }

    static func decoupled() {
        // README fix: `...` stands for a value; the README also types the modifier as `Interceptor`.
        let interceptor: Interceptor = LoggingInterceptor()
        let modifier: RequestModifier = ClientIDModifier()
        let provider = Provider(baseURL: "http://localhost:3000", modifiers: [modifier], interceptors: [interceptor])
        _ = provider
    }
}

enum ClosureBasedAPIs {
    @API
    protocol Users {
        // equivalent to `func getUser() async throws -> User`
        @GET("/user")
        func getUser(callback: @escaping (Result<User, Error>) -> Void)

        // equivalent to `func createUser(email: String, password: String) async throws`
        @POST("/user")
        func createUser(email: String, password: String, completion: @escaping (Result<Void, Error>) -> Void)

        // equivalent to `func getResponse() async throws -> Response`
        @GET("/response")
        func getResponse(completion: @escaping (Response) -> Void)
    }
}

enum HandWrittenMock {
    @API
    protocol GitHub {
        @GET("/users/:username/repos")
        func getRepositories(username: String, specialHeader: Header<String>) async throws -> [Repository]
    }

    struct GitHubMock: GitHub {
        func getRepositories(username: String, specialHeader: String) async throws -> [Repository] {
            return [
                Repository(name: "papyrus"),
                Repository(name: "alchemy")
            ]
        }
    }

    struct CounterService {
        let github: GitHub

        func countRepositories(of username: String) async throws -> Int {
            // README fix: the README calls `getRepositories` without `github.` and the header.
            try await github.getRepositories(username: username, specialHeader: "x").count
        }
    }

    static func testCounting() async throws {
        let mock: GitHub = GitHubMock()
        // README fix: the README names the service `MyService` here and calls it without `await`.
        let service = CounterService(github: mock)
        let count = try await service.countRepositories(of: "joshuawright11")
        XCTAssertEqual(count, 2)
    }
}

enum GeneratedMock {
    @API  // Generates `GitHubAPI: GitHub`
    @Mock // Generates `GitHubMock: GitHub`
    protocol GitHub {
        @GET("/users/:username/repos")
        func getRepositories(username: String) async throws -> [Repository]
    }

    struct CounterService {
        let github: GitHub

        func countRepositories(of username: String) async throws -> Int {
            try await github.getRepositories(username: username).count
        }
    }

    static func testCounting() async throws {
        let mock = GitHubMock()
        mock.mockGetRepositories { username in
            XCTAssertEqual(username, "joshuawright11")
            return [
                Repository(name: "papyrus"),
                Repository(name: "alchemy")
            ]
        }

        // README fix: the README names the service `MyService` and calls it without `await`.
        let service = CounterService(github: mock)
        let count = try await service.countRepositories(of: "joshuawright11")
        XCTAssertEqual(count, 2)
    }
}
