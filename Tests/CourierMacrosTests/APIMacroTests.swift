import CourierMacros
import MacroTesting
import Testing

@Suite(.macros(["API": APIMacro.self, "GET": EndpointMacro.self, "POST": EndpointMacro.self, "PUT": EndpointMacro.self,
    "PATCH": EndpointMacro.self, "DELETE": EndpointMacro.self, "HTTP": EndpointMacro.self, "URLForm": EndpointMacro.self]))
struct APIMacroTests {
    @Test("Inference: path by name, query on GET, fields on POST, second label as key")
    func inference() {
        assertMacro {
            """
            @API
            protocol Users {
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
            protocol Users {
                func getTodos(username: String, limit: Int?) async throws -> [Todo]
                func createUser(email: String, password: String) async throws -> User
                func getPost(id postId: Int) async throws -> Post
            }

            struct UsersAPI: Users {
                let provider: Courier.Provider

                init(provider: Courier.Provider) {
                    self.provider = provider
                }

                func getTodos(username: String, limit: Int?) async throws -> [Todo] {
                    var request = Courier.RequestBuilder(method: "GET", path: "/users/:username/todos", operationID: "Users.getTodos")
                    request.addParameter("username", value: username)
                    request.addQuery("limit", value: limit)
                    return try await provider.send(request, returning: [Todo].self)
                }

                func createUser(email: String, password: String) async throws -> User {
                    var request = Courier.RequestBuilder(method: "POST", path: "/user", operationID: "Users.createUser")
                    request.addField("email", value: email)
                    request.addField("password", value: password)
                    return try await provider.send(request, returning: User.self)
                }

                func getPost(id postId: Int) async throws -> Post {
                    var request = Courier.RequestBuilder(method: "GET", path: "/posts/:postId", operationID: "Users.getPost")
                    request.addParameter("postId", value: postId)
                    return try await provider.send(request, returning: Post.self)
                }
            }
            """
        }
    }

    @Test("Explicit wrappers, Header names in Capital-Kebab-Case, a body")
    func wrappers() {
        assertMacro {
            """
            @API
            public protocol Todos {
                @PATCH("/todos/{id}")
                func update(id: Path<Int>, requestID: Header<String>, tag: Query<String>, todo: Body<Todo>) async throws

                @DELETE("/todos/:id")
                func delete(id: Int) async throws -> Response
            }
            """
        } expansion: {
            """
            public protocol Todos {
                func update(id: Path<Int>, requestID: Header<String>, tag: Query<String>, todo: Body<Todo>) async throws
                func delete(id: Int) async throws -> Response
            }

            public struct TodosAPI: Todos {
                public let provider: Courier.Provider

                public init(provider: Courier.Provider) {
                    self.provider = provider
                }

                public func update(id: Path<Int>, requestID: Header<String>, tag: Query<String>, todo: Body<Todo>) async throws {
                    var request = Courier.RequestBuilder(method: "PATCH", path: "/todos/{id}", operationID: "Todos.update")
                    request.addParameter("id", value: id)
                    request.addHeader("Request-ID", value: requestID)
                    request.addQuery("tag", value: tag)
                    request.setBody(todo)
                    try await provider.send(request, returning: Void.self)
                }

                public func delete(id: Int) async throws -> Response {
                    var request = Courier.RequestBuilder(method: "DELETE", path: "/todos/:id", operationID: "Todos.delete")
                    request.addParameter("id", value: id)
                    return try await provider.send(request, returning: Response.self)
                }
            }
            """
        }
    }

    @Test("Return types: optional, Data, tuple; a custom method")
    func returnTypes() {
        assertMacro {
            """
            @API
            protocol Files {
                @GET("/files/:name.json")
                func file(name: String) async throws -> File?

                @HTTP("/cache/:key", method: "PURGE")
                func purge(key: String) async throws -> (Data, Response)
            }
            """
        } expansion: {
            """
            protocol Files {
                func file(name: String) async throws -> File?
                func purge(key: String) async throws -> (Data, Response)
            }

            struct FilesAPI: Files {
                let provider: Courier.Provider

                init(provider: Courier.Provider) {
                    self.provider = provider
                }

                func file(name: String) async throws -> File? {
                    var request = Courier.RequestBuilder(method: "GET", path: "/files/:name.json", operationID: "Files.file")
                    request.addParameter("name", value: name)
                    return try await provider.send(request, returning: File?.self)
                }

                func purge(key: String) async throws -> (Data, Response) {
                    var request = Courier.RequestBuilder(method: "PURGE", path: "/cache/:key", operationID: "Files.purge")
                    request.addParameter("key", value: key)
                    return try await provider.send(request, returning: (Data, Response).self)
                }
            }
            """
        }
    }

    @Test("@URLForm on the protocol, overridden on a function")
    func urlForm() {
        assertMacro {
            """
            @API
            @URLForm
            protocol Forms {
                @POST("/a")
                func a(name: String) async throws

                @URLForm(.init(arrayEncoding: .indexed))
                @POST("/b")
                func b(tags: [String]) async throws
            }
            """
        } expansion: {
            """
            protocol Forms {
                func a(name: String) async throws
                func b(tags: [String]) async throws
            }

            struct FormsAPI: Forms {
                let provider: Courier.Provider

                init(provider: Courier.Provider) {
                    self.provider = provider
                }

                func a(name: String) async throws {
                    var request = Courier.RequestBuilder(method: "POST", path: "/a", operationID: "Forms.a")
                    request.bodyEncoder = Courier.URLFormEncoder()
                    request.addField("name", value: name)
                    try await provider.send(request, returning: Void.self)
                }

                func b(tags: [String]) async throws {
                    var request = Courier.RequestBuilder(method: "POST", path: "/b", operationID: "Forms.b")
                    request.bodyEncoder = Courier.URLFormEncoder.init(arrayEncoding: .indexed)
                    request.addField("tags", value: tags)
                    try await provider.send(request, returning: Void.self)
                }
            }
            """
        }
    }

    @Test("@API on something other than a protocol")
    func notAProtocol() {
        assertMacro {
            """
            @API
            struct Users {}
            """
        } diagnostics: {
            """
            @API
            ┬───
            ╰─ 🛑 @API can only be attached to a protocol; declare the endpoints as requirements of a protocol
            struct Users {}
            """
        }
    }

    @Test("Every problem of a protocol is reported at once, on its own node")
    func diagnostics() {
        assertMacro {
            """
            @API
            protocol Broken {
                var token: String { get }

                func noMethod() async throws

                @GET("/a") @POST("/b")
                func twoMethods() async throws

                @GET("/users/:id")
                func missingPlaceholder() async throws

                @GET("/users")
                func strayPath(id: Path<Int>) async throws

                @POST("/items")
                func twoBodies(a: Body<Int>, b: Body<Int>) async throws
            }
            """
        } diagnostics: {
            """
            @API
            protocol Broken {
                var token: String { get }
                ┬────────────────────────
                ╰─ 🛑 only functions can be endpoints of an @API protocol; remove this requirement or move it to another protocol

                func noMethod() async throws
                     ┬───────
                     ╰─ 🛑 an endpoint needs a method attribute such as @GET("/path") to say how it is sent

                @GET("/a") @POST("/b")
                           ┬──────────
                           ╰─ 🛑 an endpoint can have only one method attribute; remove all but one
                func twoMethods() async throws

                @GET("/users/:id")
                ┬─────────────────
                ╰─ 🛑 the path has a placeholder that no parameter fills; add a parameter of that name or remove the placeholder ('id')
                func missingPlaceholder() async throws

                @GET("/users")
                func strayPath(id: Path<Int>) async throws
                               ┬────────────
                               ╰─ 🛑 this Path parameter has no placeholder of its name in the path; add ':name' to the path or drop 'Path<…>' ('id' in '/users')

                @POST("/items")
                func twoBodies(a: Body<Int>, b: Body<Int>) async throws
                                             ┬───────────
                                             ╰─ 🛑 an endpoint can have only one Body parameter; combine the values into one type
            }
            """
        }
    }

    @Test("A function that is not async throws gets a fix-it")
    func notAsyncThrows() {
        assertMacro {
            """
            @API
            protocol Users {
                @GET("/user")
                func getUser() -> User
            }
            """
        } diagnostics: {
            """
            @API
            protocol Users {
                @GET("/user")
                func getUser() -> User
                            ┬─────────
                            ╰─ 🛑 an endpoint must be 'async throws' because sending a request suspends and can fail
                               ✏️ add 'async throws'
            }
            """
        } fixes: {
            """
            @API
            protocol Users {
                @GET("/user")
                func getUser() async throws -> User
            }
            """
        } expansion: {
            """
            protocol Users {
                func getUser() async throws -> User
            }

            struct UsersAPI: Users {
                let provider: Courier.Provider

                init(provider: Courier.Provider) {
                    self.provider = provider
                }

                func getUser() async throws -> User {
                    let request = Courier.RequestBuilder(method: "GET", path: "/user", operationID: "Users.getUser")
                    return try await provider.send(request, returning: User.self)
                }
            }
            """
        }
    }
}
