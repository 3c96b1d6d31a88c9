import Courier
import CourierTestSupport
import Foundation
import Testing

struct Todo: Codable, Equatable, Sendable {
    var name: String
    var isDone: Bool
}

@API
protocol Library {
    @GET("/echo/users/:username/todos")
    func getTodos(username: String, limit: Int?, tags: [String]) async throws -> Echo

    @GET("/echo/transactions?merchant=Apple")
    func transactions(merchant: Query<String>) async throws -> Echo

    @POST("/echo/todos")
    func createTodo(name: String, isDone: Bool, tags: [String]) async throws -> Echo

    @URLForm
    @POST("/echo/todos/form")
    func createTodoForm(name: String, isDone: Bool, tags: [String]) async throws -> Echo

    @URLForm(URLFormEncoder(arrayEncoding: .repeatedKey))
    @POST("/echo/todos/form")
    func createTodoFormRepeated(name: String, tags: [String]) async throws -> Echo

    @PUT("/echo/todos/:id")
    func replaceTodo(id: Int, todo: Body<Todo>) async throws -> Echo

    @PATCH("/echo/todos/{id}")
    func renameTodo(id: Path<Int>, name: Field<String>, requestID: Header<String>) async throws -> Echo

    @DELETE("/echo/todos/:id")
    func deleteTodo(id: Int, force: Bool) async throws -> Echo

    @GET("/echo/posts/:postId")
    func getPost(id postId: Int) async throws -> Echo

    @GET("/echo/files/:name.json")
    func file(name: String) async throws -> Echo

    @GET("/users/:id")
    func user(id: Int) async throws -> TestUser

    @GET("/empty")
    func maybeUser() async throws -> TestUser?

    @GET("/bytes")
    func bytes() async throws -> Data

    @GET("/empty")
    func maybeBytes() async throws -> Data?

    @GET("/text")
    func text() async throws -> String

    @GET("/empty")
    func nothing() async throws

    @GET("/status/404")
    func raw() async throws -> Response

    @GET("/users/:id")
    func userAndResponse(id: Int) async throws -> (TestUser, Response)

    @GET("/status/404")
    func missing() async throws -> TestUser
}

@Suite("@API: generated clients against the server", .timeLimit(.minutes(2)))
struct APIMacroRuntimeTests {
    func library(keyMapping: KeyMapping = .useDefaultKeys) async throws -> any Library {
        LibraryAPI(provider: try await TestServer.provider(keyMapping: keyMapping))
    }

    @Test("GET: path by name, other parameters as query, nil omitted")
    func getInference() async throws {
        let seen = try await library().getTodos(username: "ada lovelace/../x", limit: nil, tags: ["a", "b"])
        #expect(seen.method == "GET")
        #expect(seen.path == "/echo/users/ada%20lovelace%2F..%2Fx/todos")
        #expect(seen.query == "tags=a&tags=b")
        #expect(seen.bodyIsEmpty)
    }

    @Test("A static query merges with Query parameters")
    func staticQuery() async throws {
        #expect(try await library().transactions(merchant: "Acme & Co").query == "merchant=Apple&merchant=Acme%20%26%20Co")
    }

    @Test("POST: unmarked parameters become JSON fields")
    func postFields() async throws {
        let seen = try await library().createTodo(name: "write", isDone: false, tags: ["x"])
        #expect(seen.method == "POST")
        #expect(seen.header("content-type") == "application/json")
        #expect(seen.bodyText == #"{"isDone":false,"name":"write","tags":["x"]}"#)
        #expect(seen.query == nil)
    }

    @Test("@URLForm sends the fields as a URL-encoded form, with the encoder given")
    func urlForm() async throws {
        let seen = try await library().createTodoForm(name: "a&b=c", isDone: true, tags: ["x", "y"])
        #expect(seen.header("content-type") == "application/x-www-form-urlencoded")
        #expect(seen.bodyText == "name=a%26b%3Dc&isDone=true&tags[]=x&tags[]=y")
        let repeated = try await library().createTodoFormRepeated(name: "n", tags: ["x", "y"])
        #expect(repeated.bodyText == "name=n&tags=x&tags=y")
    }

    @Test("Body<T> is the whole body")
    func body() async throws {
        let seen = try await library().replaceTodo(id: 3, todo: Todo(name: "n", isDone: true))
        #expect(seen.method == "PUT")
        #expect(seen.path == "/echo/todos/3")
        #expect(try JSONDecoder().decode(Todo.self, from: seen.bodyData) == Todo(name: "n", isDone: true))
    }

    @Test("Path, Field and Header wrappers; header names in Capital-Kebab-Case")
    func wrappers() async throws {
        let seen = try await library().renameTodo(id: 9, name: "renamed", requestID: "r-1")
        #expect(seen.method == "PATCH")
        #expect(seen.path == "/echo/todos/9")
        #expect(seen.bodyText == #"{"name":"renamed"}"#)
        #expect(seen.header("request-id") == "r-1")
    }

    @Test("DELETE: unmarked parameters become query items")
    func deleteQuery() async throws {
        let seen = try await library().deleteTodo(id: 4, force: true)
        #expect(seen.method == "DELETE")
        #expect(seen.target == "/echo/todos/4?force=true")
    }

    @Test("The second parameter label is the key")
    func secondLabel() async throws {
        #expect(try await library().getPost(id: 12).path == "/echo/posts/12")
    }

    @Test("A placeholder followed by a suffix")
    func suffix() async throws {
        #expect(try await library().file(name: "report").path == "/echo/files/report.json")
    }

    @Test("Every return type")
    func returnTypes() async throws {
        let api = try await library()
        #expect(try await api.user(id: 2) == TestUser(id: 2, name: "Ada"))
        #expect(try await api.maybeUser() == nil)
        #expect(try await api.bytes() == Data([0, 1, 2, 255]))
        #expect(try await api.maybeBytes() == nil)
        #expect(try await api.text() == "héllo")
        try await api.nothing()
        #expect(try await api.raw().statusCode == 404)
        let (user, response) = try await api.userAndResponse(id: 8)
        #expect(user.id == 8)
        #expect(response.statusCode == 200)
    }

    @Test("A 404 is a CourierError carrying the endpoint's name, status and body")
    func notFound() async throws {
        let error = await #expect(throws: CourierError.self) { try await library().missing() }
        #expect(error?.kind == .status)
        #expect(error?.operationID == "Library.missing")
        #expect(error?.response?.statusCode == 404)
        #expect(error?.response?.bodyText?.contains("status 404") == true)
    }

    @Test("Snake-case key mapping applies to query keys and field keys")
    func keyMapping() async throws {
        let api = try await library(keyMapping: .snakeCase)
        let post = try await api.createTodo(name: "n", isDone: true, tags: [])
        #expect(post.bodyText == #"{"is_done":true,"name":"n","tags":[]}"#)
    }
}
