@testable import CourierMacroExpansions
import MacroTesting
import SwiftSyntaxMacros
import Testing


@Suite("@API: parameters inferred and explicit, every method", .macros(courierMacros))
struct APIInferenceMacroTests {
    @Test("An optional in a role defaults to nil in the client struct; a path value and the protocol's requirement do not")
    func optionalDefaults() {
        assertMacro {
            """
            @API
            protocol Search {
                @GET("/items/{kind}")
                func find(kind: String?, q: Query<String?>, tag: Courier.Header<String?>, page: Int, sizes: Query<[Int]>?) async throws -> [Item]
            }
            """
        } expansion: {
            """
            protocol Search {
                func find(kind: String?, q: Query<String?>, tag: Courier.Header<String?>, page: Int, sizes: Query<[Int]>?) async throws -> [Item]
            }

            struct SearchAPI: Search, Sendable {
                /// Sends this API's requests.
                let provider: Courier.Provider

                /// A client that sends every request through `provider`.
                init(provider: Courier.Provider) {
                    self.provider = provider
                }

                func find(kind: String?, q: Query<String?> = nil, tag: Courier.Header<String?> = nil, page: Int, sizes: Query<[Int]>? = nil) async throws -> [Item] {
                    return try await provider.send(Requests.find(kind: kind, q: q, tag: tag, page: page, sizes: sizes))
                }

                /// Each endpoint's request, built without sending it: to inspect, log, or send elsewhere.
                enum Requests {
                    /// The request of `find(kind:q:tag:page:sizes:)`.
                    static func find(kind: String?, q: Query<String?>, tag: Courier.Header<String?>, page: Int, sizes: Query<[Int]>?) -> Courier.Request<[Item]> {
                        return Courier.Request.__make(method: "GET", path: "/items/{kind}", operationID: "Search.find", receiving: .__returning([Item].self)) { request in
                            request.addParameter("kind", value: kind)
                            request.addQuery("q", value: q)
                            request.addHeader("Tag", value: tag)
                            request.addQuery("page", value: page)
                            request.addQuery("sizes", value: sizes)
                        }
                    }
                }
            }
            """
        }
    }

    @Test("Inference: path by name, query on GET, fields on POST, second label as key; doc comments carried; an optional defaults to nil in the client struct")
    func inference() {
        assertMacro {
            """
            /// The users API.
            @API
            protocol Users {
                /// Fetches a user's todos.
                @GET("/users/:username/todos")
                func getTodos(username: String, limit: Int?) async throws -> [Todo]

                @POST("/user")
                func createUser(email: String, password: String) async throws -> User

                @GET("/posts/:postId")
                func getPost(id postId: Int) async throws -> Post
            }
            """
        } expansion: {
            """
            /// The users API.
            protocol Users {
                /// Fetches a user's todos.
                func getTodos(username: String, limit: Int?) async throws -> [Todo]
                func createUser(email: String, password: String) async throws -> User
                func getPost(id postId: Int) async throws -> Post
            }

            /// The users API.
            struct UsersAPI: Users, Sendable {
                /// Sends this API's requests.
                let provider: Courier.Provider

                /// A client that sends every request through `provider`.
                init(provider: Courier.Provider) {
                    self.provider = provider
                }

                /// Fetches a user's todos.
                func getTodos(username: String, limit: Int? = nil) async throws -> [Todo] {
                    return try await provider.send(Requests.getTodos(username: username, limit: limit))
                }

                func createUser(email: String, password: String) async throws -> User {
                    return try await provider.send(Requests.createUser(email: email, password: password))
                }

                func getPost(id postId: Int) async throws -> Post {
                    return try await provider.send(Requests.getPost(id: postId))
                }

                /// Each endpoint's request, built without sending it: to inspect, log, or send elsewhere.
                enum Requests {
                    /// The request of `getTodos(username:limit:)`.
                    static func getTodos(username: String, limit: Int?) -> Courier.Request<[Todo]> {
                        return Courier.Request.__make(method: "GET", path: "/users/:username/todos", operationID: "Users.getTodos", receiving: .__returning([Todo].self)) { request in
                            request.addParameter("username", value: username)
                            request.addQuery("limit", value: limit)
                        }
                    }

                    /// The request of `createUser(email:password:)`.
                    static func createUser(email: String, password: String) -> Courier.Request<User> {
                        return Courier.Request.__make(method: "POST", path: "/user", operationID: "Users.createUser", receiving: .__returning(User.self)) { request in
                            request.addField("email", value: email)
                            request.addField("password", value: password)
                        }
                    }

                    /// The request of `getPost(id:)`.
                    static func getPost(id postId: Int) -> Courier.Request<Post> {
                        return Courier.Request.__make(method: "GET", path: "/posts/:postId", operationID: "Users.getPost", receiving: .__returning(Post.self)) { request in
                            request.addParameter("postId", value: postId)
                        }
                    }
                }
            }
            """
        }
    }

    @Test("Explicit wrappers, Header names in Capital-Kebab-Case and as written, a body")
    func wrappers() {
        assertMacro {
            """
            @API
            public protocol Todos {
                @PATCH("/todos/{id}")
                func update(id: Path<Int>, xRequestID: Header<String>, key `x-api-key`: Header<String>, tag: Query<String>, todo: Body<Todo>) async throws

                @DELETE("/todos/:id")
                func delete(id: Int) async throws -> Response
            }
            """
        } expansion: {
            """
            public protocol Todos {
                func update(id: Path<Int>, xRequestID: Header<String>, key `x-api-key`: Header<String>, tag: Query<String>, todo: Body<Todo>) async throws
                func delete(id: Int) async throws -> Response
            }

            public struct TodosAPI: Todos, Sendable {
                /// Sends this API's requests.
                public let provider: Courier.Provider

                /// A client that sends every request through `provider`.
                public init(provider: Courier.Provider) {
                    self.provider = provider
                }

                public func update(id: Path<Int>, xRequestID: Header<String>, key `x-api-key`: Header<String>, tag: Query<String>, todo: Body<Todo>) async throws {
                    try await provider.send(Requests.update(id: id, xRequestID: xRequestID, key: `x-api-key`, tag: tag, todo: todo))
                }

                public func delete(id: Int) async throws -> Response {
                    return try await provider.send(Requests.delete(id: id))
                }

                /// Each endpoint's request, built without sending it: to inspect, log, or send elsewhere.
                public enum Requests {
                    /// The request of `update(id:xRequestID:key:tag:todo:)`.
                    public static func update(id: Path<Int>, xRequestID: Header<String>, key `x-api-key`: Header<String>, tag: Query<String>, todo: Body<Todo>) -> Courier.Request<Void> {
                        return Courier.Request.__make(method: "PATCH", path: "/todos/{id}", operationID: "Todos.update", receiving: .__returning(Void.self)) { request in
                            request.addParameter("id", value: id)
                            request.addHeader("X-Request-ID", value: xRequestID)
                            request.addHeader("x-api-key", value: `x-api-key`)
                            request.addQuery("tag", value: tag)
                            request.__setBody(todo)
                        }
                    }

                    /// The request of `delete(id:)`.
                    public static func delete(id: Int) -> Courier.Request<Response> {
                        return Courier.Request.__make(method: "DELETE", path: "/todos/:id", operationID: "Todos.delete", receiving: .__returning(Response.self)) { request in
                            request.addParameter("id", value: id)
                        }
                    }
                }
            }
            """
        }
    }

    @Test("Every method attribute and a custom method")
    func methods() {
        assertMacro {
            """
            @API
            protocol Methods {
                @GET("/a") func get() async throws
                @POST("/a") func post() async throws
                @PUT("/a") func put() async throws
                @PATCH("/a") func patch() async throws
                @DELETE("/a") func delete() async throws
                @OPTIONS("/a") func options() async throws
                @HEAD("/a") func head() async throws
                @TRACE("/a") func trace() async throws
                @CONNECT("/a") func connect() async throws
                @HTTP("/a", method: "PURGE") func purge() async throws
            }
            """
        } expansion: {
            """
            protocol Methods {
                func get() async throws
                func post() async throws
                func put() async throws
                func patch() async throws
                func delete() async throws
                func options() async throws
                func head() async throws
                func trace() async throws
                func connect() async throws
                func purge() async throws
            }

            struct MethodsAPI: Methods, Sendable {
                /// Sends this API's requests.
                let provider: Courier.Provider

                /// A client that sends every request through `provider`.
                init(provider: Courier.Provider) {
                    self.provider = provider
                }

                func get() async throws {
                    try await provider.send(Requests.get())
                }

                func post() async throws {
                    try await provider.send(Requests.post())
                }

                func put() async throws {
                    try await provider.send(Requests.put())
                }

                func patch() async throws {
                    try await provider.send(Requests.patch())
                }

                func delete() async throws {
                    try await provider.send(Requests.delete())
                }

                func options() async throws {
                    try await provider.send(Requests.options())
                }

                func head() async throws {
                    try await provider.send(Requests.head())
                }

                func trace() async throws {
                    try await provider.send(Requests.trace())
                }

                func connect() async throws {
                    try await provider.send(Requests.connect())
                }

                func purge() async throws {
                    try await provider.send(Requests.purge())
                }

                /// Each endpoint's request, built without sending it: to inspect, log, or send elsewhere.
                enum Requests {
                    /// The request of `get()`.
                    static func get() -> Courier.Request<Void> {
                        return Courier.Request.__make(method: "GET", path: "/a", operationID: "Methods.get", receiving: .__returning(Void.self))
                    }

                    /// The request of `post()`.
                    static func post() -> Courier.Request<Void> {
                        return Courier.Request.__make(method: "POST", path: "/a", operationID: "Methods.post", receiving: .__returning(Void.self))
                    }

                    /// The request of `put()`.
                    static func put() -> Courier.Request<Void> {
                        return Courier.Request.__make(method: "PUT", path: "/a", operationID: "Methods.put", receiving: .__returning(Void.self))
                    }

                    /// The request of `patch()`.
                    static func patch() -> Courier.Request<Void> {
                        return Courier.Request.__make(method: "PATCH", path: "/a", operationID: "Methods.patch", receiving: .__returning(Void.self))
                    }

                    /// The request of `delete()`.
                    static func delete() -> Courier.Request<Void> {
                        return Courier.Request.__make(method: "DELETE", path: "/a", operationID: "Methods.delete", receiving: .__returning(Void.self))
                    }

                    /// The request of `options()`.
                    static func options() -> Courier.Request<Void> {
                        return Courier.Request.__make(method: "OPTIONS", path: "/a", operationID: "Methods.options", receiving: .__returning(Void.self))
                    }

                    /// The request of `head()`.
                    static func head() -> Courier.Request<Void> {
                        return Courier.Request.__make(method: "HEAD", path: "/a", operationID: "Methods.head", receiving: .__returning(Void.self))
                    }

                    /// The request of `trace()`.
                    static func trace() -> Courier.Request<Void> {
                        return Courier.Request.__make(method: "TRACE", path: "/a", operationID: "Methods.trace", receiving: .__returning(Void.self))
                    }

                    /// The request of `connect()`.
                    static func connect() -> Courier.Request<Void> {
                        return Courier.Request.__make(method: "CONNECT", path: "/a", operationID: "Methods.connect", receiving: .__returning(Void.self))
                    }

                    /// The request of `purge()`.
                    static func purge() -> Courier.Request<Void> {
                        return Courier.Request.__make(method: "PURGE", path: "/a", operationID: "Methods.purge", receiving: .__returning(Void.self))
                    }
                }
            }
            """
        }
    }
}
