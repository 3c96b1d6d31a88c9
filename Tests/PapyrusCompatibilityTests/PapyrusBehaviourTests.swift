import Courier
import CourierTestSupport
import Foundation
import Testing
import XCTest

/// The README's examples, run against the test server wherever they describe behaviour.
@Suite("Papyrus' README examples behave as the README says", .timeLimit(.minutes(2)))
struct PapyrusBehaviourTests {
    static let todosJSON = #"[{"name":"a","isDone":false,"tags":["x"]}]"#
    static let userJSON = #"{"id":1,"name":"Ada"}"#

    @Test("The introduction: bearer authorization, path parameter, decoded array")
    func introduction() async throws {
        let (provider, server) = try await TestServer.echoing(reply: Self.todosJSON)
        let users: Introduction.Users = Introduction.UsersAPI(provider: provider)
        let todos = try await users.getTodos(username: "joshuawright11")
        #expect(todos.first?.tags == ["x"])
        #expect(server.last?.path == "/echo/users/joshuawright11/todos")
        #expect(server.last?.header("authorization") == "Bearer <my-auth-token>")
    }

    @Test("Method and path, explicit and inferred path parameters")
    func paths() async throws {
        let (provider, server) = try await TestServer.echoing(reply: "[]")
        try await MethodAndPath.TransfersAPI(provider: provider).delete(id: 5)
        #expect(server.last?.method == "DELETE")
        #expect(server.last?.path == "/echo/transfers/5")
        try await MethodAndPath.CacheAPI(provider: provider).purge(key: "books")
        #expect(server.last?.method == "PURGE")
        #expect(server.last?.path == "/echo/cache/books")
        _ = try await ConfiguringTheURL.RepositoriesAPI(provider: provider).getRepository(username: "a", id: 1)
        #expect(server.last?.path == "/echo/users/a/repos/1")
        _ = try await ConfiguringTheURL.InferredRepositoriesAPI(provider: provider).getRepository(username: "b", id: 2)
        #expect(server.last?.path == "/echo/users/b/repos/2")
    }

    @Test("Query parameters: explicit, static in the path, inferred on GET")
    func queries() async throws {
        let (provider, server) = try await TestServer.echoing(reply: "[]")
        _ = try await QueryParameters.ExplicitAPI(provider: provider).getTransactions(merchant: "Apple")
        #expect(server.last?.target == "/echo/transactions?merchant=Apple")
        _ = try await QueryParameters.StaticAPI(provider: provider).getTransactions()
        #expect(server.last?.target == "/echo/transactions?merchant=Apple")
        _ = try await QueryParameters.InferredAPI(provider: provider).getTransactions(merchant: "Apple")
        #expect(server.last?.target == "/echo/transactions?merchant=Apple")
    }

    @Test("Headers: static at both scopes, and a variable header in Capital-Kebab-Case")
    func headers() async throws {
        let (provider, server) = try await TestServer.echoing(reply: Self.userJSON)
        _ = try await Headers.FunctionScopeAPI(provider: provider).getUser()
        #expect(server.last?.header("cache-control") == "max-age=86400")
        let users = Headers.UsersAPI(provider: provider)
        _ = try await users.getUser()
        #expect(server.last?.header("x-client-version") == "1.2.3")
        try await users.updateUser(id: 3, name: "n")
        #expect(server.last?.header("x-client-version") == "1.2.3")
        #expect(server.last?.bodyText == #"{"name":"n"}"#)
        try await Headers.AccountsAPI(provider: provider).getRepository(customHeader: "v")
        #expect(server.last?.header("custom-header") == "v")
        #expect(server.last?.rawHeaderNames.contains("Custom-Header") == true)
    }

    @Test("Bodies: Body, Field, inferred fields, URL form at both scopes, multipart")
    func bodies() async throws {
        let (provider, server) = try await TestServer.echoing()
        let todo = Todo(name: "n", isDone: true, tags: ["t"])
        try await Bodies.WithBodyAPI(provider: provider).createTodo(todo: todo)
        #expect(server.last?.bodyText == #"{"isDone":true,"name":"n","tags":["t"]}"#)
        try await Bodies.WithFieldsAPI(provider: provider).createTodo(name: "n", isDone: true, tags: ["t"])
        #expect(server.last?.bodyText == #"{"isDone":true,"name":"n","tags":["t"]}"#)
        try await Bodies.InferredFieldsAPI(provider: provider).createTodo(name: "n", isDone: true, tags: ["t"])
        #expect(server.last?.header("content-type") == "application/json")
        try await Bodies.FormFunctionAPI(provider: provider).createTodo(name: "n", isDone: true, tags: ["t"])
        #expect(server.last?.header("content-type") == "application/x-www-form-urlencoded")
        #expect(server.last?.bodyText == "name=n&isDone=true&tags[]=t")
        try await Bodies.TodosAPI(provider: provider).updateTodo(id: 1, name: "m", isDone: false, tags: [])
        #expect(server.last?.method == "PATCH")
        #expect(server.last?.bodyText == "name=m&isDone=false")
        try await Bodies.AttachmentsAPI(provider: provider).uploadAttachments(
            file1: Part(data: Data("one".utf8), fileName: "1.txt", mimeType: "text/plain"),
            file2: Part(data: Data("two".utf8), fileName: "2.txt", mimeType: "text/plain")
        )
        let body = server.last?.bodyText ?? ""
        #expect(server.last?.header("content-type")?.hasPrefix("multipart/form-data; boundary=") == true)
        #expect(body.contains(#"Content-Disposition: form-data; name="file1"; filename="1.txt""#))
        #expect(body.contains(#"Content-Disposition: form-data; name="file2"; filename="2.txt""#))
    }

    @Test("A custom JSON encoder from @JSON(encoder:)")
    func customEncoder() async throws {
        let (provider, server) = try await TestServer.echoing()
        try await CustomEncoders.DatedTodosAPI(provider: provider).create(due: Date(timeIntervalSince1970: 86400))
        #expect(server.last?.bodyText == #"{"due":"1970-01-02T00:00:00Z"}"#)
    }

    @Test("Responses: Data throws on an empty body, Data? is nil, Response and (T, Response)")
    func responses() async throws {
        let (empty, _) = try await TestServer.echoing(reply: "")
        await #expect(throws: CourierError.self) { try await Responses.BytesAPI(provider: empty).getBytes() }
        #expect(try await Responses.OptionalBytesAPI(provider: empty).getBytes() == nil)
        try await Responses.LogoutAPI(provider: empty).logout()

        let (provider, _) = try await TestServer.echoing(reply: Self.userJSON)
        let res = try await Responses.RawUsersAPI(provider: provider).getUser()
        #expect(res.error == nil)
        let (user, tupleResponse) = try await Responses.TupleUsersAPI(provider: provider).getUser()
        #expect(user.name == "Ada")
        #expect(tupleResponse.statusCode! == 200)
    }

    @Test("Error handling: a failing status is a CourierError with the request and response")
    func errors() async throws {
        let (provider, _) = try await TestServer.echoing(reply: #"{"error":"nope"}"#, status: .notFound)
        do {
            _ = try await ErrorHandling.UsersAPI(provider: provider).getUser()
            Issue.record("expected a failure")
        } catch {
            let error = try #require(error as? CourierError)
            #expect(error.request?.path == "/user")
            #expect(error.response?.statusCode == 404)
            #expect(error.response?.bodyText == #"{"error":"nope"}"#)
        }
    }

    @Test("Configuration: the second label is the key; snake-case mapping; modifiers add fields")
    func configuration() async throws {
        let (provider, server) = try await TestServer.echoing(reply: #"{"id":1}"#)
        _ = try await Configuration.PostsAPI(provider: provider).getPost(id: 9)
        #expect(server.last?.path == "/echo/posts/9")

        let (modified, modifiedServer) = try await TestServer.echoing()
        let plaid = Bodies.InferredFieldsAPI(provider: modified.modifyRequests { (req: inout RequestBuilder) in
            req.addField("client_id", value: "<client-id>")
            req.addField("secret", value: "<secret>")
        })
        try await plaid.createTodo(name: "n", isDone: false, tags: [])
        #expect(modifiedServer.last?.bodyText == #"{"client_id":"<client-id>","isDone":false,"name":"n","secret":"<secret>","tags":[]}"#)
    }

    @Test("Closure-based APIs call back with the same results as their async forms")
    func closures() async throws {
        let (provider, server) = try await TestServer.echoing(reply: Self.userJSON)
        let users = ClosureBasedAPIs.UsersAPI(provider: provider)
        let user = try await withCheckedThrowingContinuation { continuation in
            users.getUser { continuation.resume(with: $0) }
        }
        #expect(user.name == "Ada")
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            users.createUser(email: "a@b.c", password: "pw") { continuation.resume(with: $0) }
        }
        #expect(server.last?.bodyText == #"{"email":"a@b.c","password":"pw"}"#)
        let response = await withCheckedContinuation { continuation in
            users.getResponse { continuation.resume(returning: $0) }
        }
        #expect(response.statusCode == 200)
    }
}

/// The README's mock examples use XCTest assertions, so they run as XCTest cases.
final class PapyrusMockExamples: XCTestCase {
    func testHandWrittenMock() async throws {
        try await HandWrittenMock.testCounting()
    }

    func testGeneratedMock() async throws {
        try await GeneratedMock.testCounting()
    }
}
