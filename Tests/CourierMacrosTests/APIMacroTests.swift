import CourierMacros
import MacroTesting
import SwiftSyntaxMacros
import Testing

let courierMacros: [String: any Macro.Type] = [
    "API": APIMacro.self, "Mock": MockMacro.self,
    "GET": MarkerMacro.self, "POST": MarkerMacro.self, "PUT": MarkerMacro.self, "PATCH": MarkerMacro.self,
    "DELETE": MarkerMacro.self, "OPTIONS": MarkerMacro.self, "HEAD": MarkerMacro.self, "TRACE": MarkerMacro.self,
    "CONNECT": MarkerMacro.self, "HTTP": MarkerMacro.self, "URLForm": MarkerMacro.self, "Multipart": MarkerMacro.self,
    "JSON": MarkerMacro.self, "Coders": MarkerMacro.self, "KeyMapping": MarkerMacro.self, "Headers": MarkerMacro.self,
    "Authorization": MarkerMacro.self,
    "Endpoint": RequestStructMacro.self, "EndpointResponse": ResponseStructMacro.self,
    "PathParameter": MarkerMacro.self, "QueryItem": MarkerMacro.self, "QueryFlag": MarkerMacro.self,
    "QueryItems": MarkerMacro.self, "RequestHeader": MarkerMacro.self, "RequestHeaders": MarkerMacro.self,
    "RequestCookies": MarkerMacro.self, "RequestBody": MarkerMacro.self, "BodyField": MarkerMacro.self,
    "Param": MarkerMacro.self, "AbsoluteURL": MarkerMacro.self, "ResponseBody": MarkerMacro.self,
    "ResponseErrorBody": MarkerMacro.self, "ResponseHeader": MarkerMacro.self, "ResponseStatusCode": MarkerMacro.self,
    "ResponseCookies": MarkerMacro.self, "NestedResponse": MarkerMacro.self,
]

@Suite(.macros(courierMacros))
struct APIMacroTests {
    @Test("Inference: path by name, query on GET, fields on POST, second label as key; doc comments carried")
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
            struct UsersAPI: Users {
                /// Sends this API's requests.
                let provider: Courier.Provider

                /// A client that sends every request through `provider`.
                init(provider: Courier.Provider) {
                    self.provider = provider
                }

                /// Fetches a user's todos.
                func getTodos(username: String, limit: Int?) async throws -> [Todo] {
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
                        var request = Courier.RequestBuilder(method: "GET", path: "/users/:username/todos", operationID: "Users.getTodos")
                        request.addParameter("username", value: username)
                        request.addQuery("limit", value: limit)
                        return Courier.Request(request, receiving: .returning([Todo].self))
                    }

                    /// The request of `createUser(email:password:)`.
                    static func createUser(email: String, password: String) -> Courier.Request<User> {
                        var request = Courier.RequestBuilder(method: "POST", path: "/user", operationID: "Users.createUser")
                        request.addField("email", value: email)
                        request.addField("password", value: password)
                        return Courier.Request(request, receiving: .returning(User.self))
                    }

                    /// The request of `getPost(id:)`.
                    static func getPost(id postId: Int) -> Courier.Request<Post> {
                        var request = Courier.RequestBuilder(method: "GET", path: "/posts/:postId", operationID: "Users.getPost")
                        request.addParameter("postId", value: postId)
                        return Courier.Request(request, receiving: .returning(Post.self))
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

            public struct TodosAPI: Todos {
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
                        var request = Courier.RequestBuilder(method: "PATCH", path: "/todos/{id}", operationID: "Todos.update")
                        request.addParameter("id", value: id)
                        request.addHeader("X-Request-ID", value: xRequestID)
                        request.addHeader("x-api-key", value: `x-api-key`)
                        request.addQuery("tag", value: tag)
                        request.setBody(todo)
                        return Courier.Request(request, receiving: .returning(Void.self))
                    }

                    /// The request of `delete(id:)`.
                    public static func delete(id: Int) -> Courier.Request<Response> {
                        var request = Courier.RequestBuilder(method: "DELETE", path: "/todos/:id", operationID: "Todos.delete")
                        request.addParameter("id", value: id)
                        return Courier.Request(request, receiving: .returning(Response.self))
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

            struct MethodsAPI: Methods {
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
                        let request = Courier.RequestBuilder(method: "GET", path: "/a", operationID: "Methods.get")
                        return Courier.Request(request, receiving: .returning(Void.self))
                    }

                    /// The request of `post()`.
                    static func post() -> Courier.Request<Void> {
                        let request = Courier.RequestBuilder(method: "POST", path: "/a", operationID: "Methods.post")
                        return Courier.Request(request, receiving: .returning(Void.self))
                    }

                    /// The request of `put()`.
                    static func put() -> Courier.Request<Void> {
                        let request = Courier.RequestBuilder(method: "PUT", path: "/a", operationID: "Methods.put")
                        return Courier.Request(request, receiving: .returning(Void.self))
                    }

                    /// The request of `patch()`.
                    static func patch() -> Courier.Request<Void> {
                        let request = Courier.RequestBuilder(method: "PATCH", path: "/a", operationID: "Methods.patch")
                        return Courier.Request(request, receiving: .returning(Void.self))
                    }

                    /// The request of `delete()`.
                    static func delete() -> Courier.Request<Void> {
                        let request = Courier.RequestBuilder(method: "DELETE", path: "/a", operationID: "Methods.delete")
                        return Courier.Request(request, receiving: .returning(Void.self))
                    }

                    /// The request of `options()`.
                    static func options() -> Courier.Request<Void> {
                        let request = Courier.RequestBuilder(method: "OPTIONS", path: "/a", operationID: "Methods.options")
                        return Courier.Request(request, receiving: .returning(Void.self))
                    }

                    /// The request of `head()`.
                    static func head() -> Courier.Request<Void> {
                        let request = Courier.RequestBuilder(method: "HEAD", path: "/a", operationID: "Methods.head")
                        return Courier.Request(request, receiving: .returning(Void.self))
                    }

                    /// The request of `trace()`.
                    static func trace() -> Courier.Request<Void> {
                        let request = Courier.RequestBuilder(method: "TRACE", path: "/a", operationID: "Methods.trace")
                        return Courier.Request(request, receiving: .returning(Void.self))
                    }

                    /// The request of `connect()`.
                    static func connect() -> Courier.Request<Void> {
                        let request = Courier.RequestBuilder(method: "CONNECT", path: "/a", operationID: "Methods.connect")
                        return Courier.Request(request, receiving: .returning(Void.self))
                    }

                    /// The request of `purge()`.
                    static func purge() -> Courier.Request<Void> {
                        let request = Courier.RequestBuilder(method: "PURGE", path: "/a", operationID: "Methods.purge")
                        return Courier.Request(request, receiving: .returning(Void.self))
                    }
                }
            }
            """
        }
    }

    @Test("Return types: optional, Data, String, tuple; typed throws")
    func returnTypes() {
        assertMacro {
            """
            @API
            protocol Files {
                @GET("/files/:name.json")
                func file(name: String) async throws -> File?

                @GET("/raw")
                func raw() async throws(CourierError) -> Data

                @GET("/text")
                func text() async throws -> String

                @GET("/cache/:key")
                func both(key: String) async throws -> (File, Response)
            }
            """
        } expansion: {
            """
            protocol Files {
                func file(name: String) async throws -> File?
                func raw() async throws(CourierError) -> Data
                func text() async throws -> String
                func both(key: String) async throws -> (File, Response)
            }

            struct FilesAPI: Files {
                /// Sends this API's requests.
                let provider: Courier.Provider

                /// A client that sends every request through `provider`.
                init(provider: Courier.Provider) {
                    self.provider = provider
                }

                func file(name: String) async throws -> File? {
                    return try await provider.send(Requests.file(name: name))
                }

                func raw() async throws(CourierError) -> Data {
                    return try await provider.send(Requests.raw())
                }

                func text() async throws -> String {
                    return try await provider.send(Requests.text())
                }

                func both(key: String) async throws -> (File, Response) {
                    return try await provider.send(Requests.both(key: key))
                }

                /// Each endpoint's request, built without sending it: to inspect, log, or send elsewhere.
                enum Requests {
                    /// The request of `file(name:)`.
                    static func file(name: String) -> Courier.Request<File?> {
                        var request = Courier.RequestBuilder(method: "GET", path: "/files/:name.json", operationID: "Files.file")
                        request.addParameter("name", value: name)
                        return Courier.Request(request, receiving: .returning(File?.self))
                    }

                    /// The request of `raw()`.
                    static func raw() -> Courier.Request<Data> {
                        let request = Courier.RequestBuilder(method: "GET", path: "/raw", operationID: "Files.raw")
                        return Courier.Request(request, receiving: .returning(Data.self))
                    }

                    /// The request of `text()`.
                    static func text() -> Courier.Request<String> {
                        let request = Courier.RequestBuilder(method: "GET", path: "/text", operationID: "Files.text")
                        return Courier.Request(request, receiving: .returning(String.self))
                    }

                    /// The request of `both(key:)`.
                    static func both(key: String) -> Courier.Request<(File, Response)> {
                        var request = Courier.RequestBuilder(method: "GET", path: "/cache/:key", operationID: "Files.both")
                        request.addParameter("key", value: key)
                        return Courier.Request(request, receiving: .returning((File, Response).self))
                    }
                }
            }
            """
        }
    }

    @Test("Completion handlers: Result of a value, Result of Void, Response")
    func completionHandlers() {
        assertMacro {
            """
            @API
            protocol Users {
                @GET("/user")
                func getUser(callback: @escaping (Result<User, Error>) -> Void)

                @POST("/user")
                func createUser(email: String, completion: @escaping (Result<Void, any Error>) -> Void)

                @GET("/response")
                func getResponse(completion: @escaping (Response) -> Void)
            }
            """
        } expansion: {
            """
            protocol Users {
                func getUser(callback: @escaping (Result<User, Error>) -> Void)
                func createUser(email: String, completion: @escaping (Result<Void, any Error>) -> Void)
                func getResponse(completion: @escaping (Response) -> Void)
            }

            struct UsersAPI: Users {
                /// Sends this API's requests.
                let provider: Courier.Provider

                /// A client that sends every request through `provider`.
                init(provider: Courier.Provider) {
                    self.provider = provider
                }

                func getUser(callback: @escaping (Result<User, any Error>) -> Void) {
                    provider.send(Requests.getUser(), completion: callback)
                }

                func createUser(email: String, completion: @escaping (Result<Void, any Error>) -> Void) {
                    provider.send(Requests.createUser(email: email), completion: completion)
                }

                func getResponse(completion: @escaping (Response) -> Void) {
                    provider.send(Requests.getResponse(), completion: completion)
                }

                /// Each endpoint's request, built without sending it: to inspect, log, or send elsewhere.
                enum Requests {
                    /// The request of `getUser(callback:)`.
                    static func getUser() -> Courier.Request<User> {
                        let request = Courier.RequestBuilder(method: "GET", path: "/user", operationID: "Users.getUser")
                        return Courier.Request(request, receiving: .returning(User.self))
                    }

                    /// The request of `createUser(email:completion:)`.
                    static func createUser(email: String) -> Courier.Request<Void> {
                        var request = Courier.RequestBuilder(method: "POST", path: "/user", operationID: "Users.createUser")
                        request.addField("email", value: email)
                        return Courier.Request(request, receiving: .returning(Void.self))
                    }

                    /// The request of `getResponse(completion:)`.
                    static func getResponse() -> Courier.Request<Courier.Response> {
                        let request = Courier.RequestBuilder(method: "GET", path: "/response", operationID: "Users.getResponse")
                        return Courier.Request(request, receiving: .returning(Courier.Response.self))
                    }
                }
            }
            """
        }
    }

    @Test("Headers and Authorization at both scopes; the function's win")
    func headersAndAuthorization() {
        assertMacro {
            """
            @API
            @Headers(["X-Client-Version": "1.2.3", "Cache-Control": "no-cache"])
            @Authorization(.bearer("token"))
            protocol Users {
                @Headers(["Cache-Control": "max-age=86400"])
                @GET("/user")
                func getUser() async throws -> User

                @Authorization(.basic(username: "ada", password: "P@ssw0rd"))
                @PATCH("/user/:id")
                func updateUser(id: Int, name: String) async throws
            }
            """
        } expansion: {
            """
            protocol Users {
                func getUser() async throws -> User
                func updateUser(id: Int, name: String) async throws
            }

            struct UsersAPI: Users {
                /// Sends this API's requests.
                let provider: Courier.Provider

                /// A client that sends every request through `provider`.
                init(provider: Courier.Provider) {
                    self.provider = provider
                }

                func getUser() async throws -> User {
                    return try await provider.send(Requests.getUser())
                }

                func updateUser(id: Int, name: String) async throws {
                    try await provider.send(Requests.updateUser(id: id, name: name))
                }

                /// Each endpoint's request, built without sending it: to inspect, log, or send elsewhere.
                enum Requests {
                    /// The request of `getUser()`.
                    static func getUser() -> Courier.Request<User> {
                        var request = Courier.RequestBuilder(method: "GET", path: "/user", operationID: "Users.getUser")
                        request.setHeader("X-Client-Version", value: "1.2.3")
                        request.setHeader("Cache-Control", value: "no-cache")
                        request.setAuthorization(.bearer("token"))
                        request.setHeader("Cache-Control", value: "max-age=86400")
                        return Courier.Request(request, receiving: .returning(User.self))
                    }

                    /// The request of `updateUser(id:name:)`.
                    static func updateUser(id: Int, name: String) -> Courier.Request<Void> {
                        var request = Courier.RequestBuilder(method: "PATCH", path: "/user/:id", operationID: "Users.updateUser")
                        request.setHeader("X-Client-Version", value: "1.2.3")
                        request.setHeader("Cache-Control", value: "no-cache")
                        request.setAuthorization(.bearer("token"))
                        request.setAuthorization(.basic(username: "ada", password: "P@ssw0rd"))
                        request.addParameter("id", value: id)
                        request.addField("name", value: name)
                        return Courier.Request(request, receiving: .returning(Void.self))
                    }
                }
            }
            """
        }
    }

    @Test("Coders: @JSON, @URLForm, @Multipart, @Coders and @KeyMapping at both scopes")
    func coders() {
        assertMacro {
            """
            @API
            @URLForm
            @KeyMapping(.snakeCase)
            protocol Forms {
                @POST("/a")
                func a(firstName: String) async throws

                @URLForm(.init(arrayEncoding: .indexed))
                @POST("/b")
                func b(tags: [String]) async throws

                @JSON(encoder: .iso8601, decoder: .iso8601)
                @KeyMapping(.useDefaultKeys)
                @PUT("/c")
                func c(at: Date) async throws -> Stamp

                @Multipart
                @POST("/upload/:id")
                func upload(id: Int, file: Part, thumbnail: Part?) async throws

                @Coders(encoder: MyEncoder(), decoder: MyDecoder())
                @POST("/d")
                func d(body: Body<Thing>) async throws -> Thing
            }
            """
        } expansion: {
            """
            protocol Forms {
                func a(firstName: String) async throws
                func b(tags: [String]) async throws
                func c(at: Date) async throws -> Stamp
                func upload(id: Int, file: Part, thumbnail: Part?) async throws
                func d(body: Body<Thing>) async throws -> Thing
            }

            struct FormsAPI: Forms {
                /// Sends this API's requests.
                let provider: Courier.Provider

                /// A client that sends every request through `provider`.
                init(provider: Courier.Provider) {
                    self.provider = provider
                }

                func a(firstName: String) async throws {
                    try await provider.send(Requests.a(firstName: firstName))
                }

                func b(tags: [String]) async throws {
                    try await provider.send(Requests.b(tags: tags))
                }

                func c(at: Date) async throws -> Stamp {
                    return try await provider.send(Requests.c(at: at))
                }

                func upload(id: Int, file: Part, thumbnail: Part?) async throws {
                    try await provider.send(Requests.upload(id: id, file: file, thumbnail: thumbnail))
                }

                func d(body: Body<Thing>) async throws -> Thing {
                    return try await provider.send(Requests.d(body: body))
                }

                /// Each endpoint's request, built without sending it: to inspect, log, or send elsewhere.
                enum Requests {
                    /// The request of `a(firstName:)`.
                    static func a(firstName: String) -> Courier.Request<Void> {
                        var request = Courier.RequestBuilder(method: "POST", path: "/a", operationID: "Forms.a")
                        request.keyMapping = .snakeCase
                        request.bodyEncoder = Courier.URLFormEncoder()
                        request.addField("firstName", value: firstName)
                        return Courier.Request(request, receiving: .returning(Void.self))
                    }

                    /// The request of `b(tags:)`.
                    static func b(tags: [String]) -> Courier.Request<Void> {
                        var request = Courier.RequestBuilder(method: "POST", path: "/b", operationID: "Forms.b")
                        request.keyMapping = .snakeCase
                        request.bodyEncoder = Courier.URLFormEncoder.init(arrayEncoding: .indexed)
                        request.addField("tags", value: tags)
                        return Courier.Request(request, receiving: .returning(Void.self))
                    }

                    /// The request of `c(at:)`.
                    static func c(at: Date) -> Courier.Request<Stamp> {
                        var request = Courier.RequestBuilder(method: "PUT", path: "/c", operationID: "Forms.c")
                        request.keyMapping = .snakeCase
                        request.keyMapping = .useDefaultKeys
                        request.useJSON(encoder: .iso8601, decoder: .iso8601)
                        request.addField("at", value: at)
                        return Courier.Request(request, receiving: .returning(Stamp.self))
                    }

                    /// The request of `upload(id:file:thumbnail:)`.
                    static func upload(id: Int, file: Part, thumbnail: Part?) -> Courier.Request<Void> {
                        var request = Courier.RequestBuilder(method: "POST", path: "/upload/:id", operationID: "Forms.upload")
                        request.keyMapping = .snakeCase
                        request.addParameter("id", value: id)
                        request.addPart("file", value: file)
                        request.addPart("thumbnail", value: thumbnail)
                        return Courier.Request(request, receiving: .returning(Void.self))
                    }

                    /// The request of `d(body:)`.
                    static func d(body: Body<Thing>) -> Courier.Request<Thing> {
                        var request = Courier.RequestBuilder(method: "POST", path: "/d", operationID: "Forms.d")
                        request.keyMapping = .snakeCase
                        request.bodyEncoder = MyEncoder()
                        request.bodyDecoder = MyDecoder()
                        request.setBody(body)
                        return Courier.Request(request, receiving: .returning(Thing.self))
                    }
                }
            }
            """
        }
    }

    @Test("@Mock: setters per endpoint, overloads that do not collide, completion handlers")
    func mock() {
        assertMacro {
            """
            @Mock
            public protocol GitHub {
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
                func user(completion: @escaping (Result<User, Error>) -> Void)

                @GET("/raw")
                func raw(completion: @escaping (Response) -> Void)
            }
            """
        } expansion: {
            """
            public protocol GitHub {
                func getRepositories(username: String) async throws -> [Repository]
                func find(id: Int) async throws -> Repository
                func find(name: String) async throws -> Repository
                func search(q: String) async throws -> [Repository]
                func search(q: Int) async throws -> [Repository]
                func clear() async throws
                func user(completion: @escaping (Result<User, Error>) -> Void)
                func raw(completion: @escaping (Response) -> Void)
            }

            public final class GitHubMock: GitHub, Sendable {
                private let registry = Courier.MockRegistry()

                /// A mock with no answers set; every endpoint throws until you set one.
                public init() {
                }

                public func getRepositories(username: String) async throws -> [Repository] {
                    let handler = try registry.handler("getRepositories(username: String)", as: (@Sendable (String) async throws -> [Repository]).self, operationID: "GitHub.getRepositories")
                    return try await handler(username)
                }

                /// Sets what `getRepositories(username:)` answers: the closure receives the call's arguments.
                public func mockGetRepositories(_ handler: @escaping @Sendable (String) async throws -> [Repository]) {
                    registry.set("getRepositories(username: String)", handler)
                }

                public func find(id: Int) async throws -> Repository {
                    let handler = try registry.handler("find(id: Int)", as: (@Sendable (Int) async throws -> Repository).self, operationID: "GitHub.find")
                    return try await handler(id)
                }

                /// Sets what `find(id:)` answers: the closure receives the call's arguments.
                public func mockFindId(_ handler: @escaping @Sendable (Int) async throws -> Repository) {
                    registry.set("find(id: Int)", handler)
                }
                /// Sets what `find(id:)` answers: the closure receives the call's arguments.
                public func mockFind(_ handler: @escaping @Sendable (Int) async throws -> Repository) {
                    registry.set("find(id: Int)", handler)
                }

                public func find(name: String) async throws -> Repository {
                    let handler = try registry.handler("find(name: String)", as: (@Sendable (String) async throws -> Repository).self, operationID: "GitHub.find")
                    return try await handler(name)
                }

                /// Sets what `find(name:)` answers: the closure receives the call's arguments.
                public func mockFindName(_ handler: @escaping @Sendable (String) async throws -> Repository) {
                    registry.set("find(name: String)", handler)
                }
                /// Sets what `find(name:)` answers: the closure receives the call's arguments.
                public func mockFind(_ handler: @escaping @Sendable (String) async throws -> Repository) {
                    registry.set("find(name: String)", handler)
                }

                public func search(q: String) async throws -> [Repository] {
                    let handler = try registry.handler("search(q: String)", as: (@Sendable (String) async throws -> [Repository]).self, operationID: "GitHub.search")
                    return try await handler(q)
                }

                /// Sets what `search(q:)` answers: the closure receives the call's arguments.
                public func mockSearchQString(_ handler: @escaping @Sendable (String) async throws -> [Repository]) {
                    registry.set("search(q: String)", handler)
                }
                /// Sets what `search(q:)` answers: the closure receives the call's arguments.
                public func mockSearch(_ handler: @escaping @Sendable (String) async throws -> [Repository]) {
                    registry.set("search(q: String)", handler)
                }

                public func search(q: Int) async throws -> [Repository] {
                    let handler = try registry.handler("search(q: Int)", as: (@Sendable (Int) async throws -> [Repository]).self, operationID: "GitHub.search")
                    return try await handler(q)
                }

                /// Sets what `search(q:)` answers: the closure receives the call's arguments.
                public func mockSearchQInt(_ handler: @escaping @Sendable (Int) async throws -> [Repository]) {
                    registry.set("search(q: Int)", handler)
                }
                /// Sets what `search(q:)` answers: the closure receives the call's arguments.
                public func mockSearch(_ handler: @escaping @Sendable (Int) async throws -> [Repository]) {
                    registry.set("search(q: Int)", handler)
                }

                public func clear() async throws {
                    let handler = try registry.handler("clear()", as: (@Sendable () async throws -> Void).self, operationID: "GitHub.clear")
                    try await handler()
                }

                /// Sets what `clear()` answers: the closure receives the call's arguments.
                public func mockClear(_ handler: @escaping @Sendable () async throws -> Void) {
                    registry.set("clear()", handler)
                }

                public func user(completion: @escaping (Result<User, any Error>) -> Void) {
                    let operationID = "GitHub.user"
                    let handler: @Sendable () async throws -> User
                    do {
                        handler = try registry.handler("user(completion: @escaping (Result<User, Error>) -> Void)", as: (@Sendable () async throws -> User).self, operationID: operationID)
                    } catch {
                        handler = {
                            throw error
                        }
                    }
                    registry.complete(completion) {
                        try await handler()
                    }
                }

                /// Sets what `user(completion:)` answers: the closure receives the call's arguments.
                public func mockUser(_ handler: @escaping @Sendable () async throws -> User) {
                    registry.set("user(completion: @escaping (Result<User, Error>) -> Void)", handler)
                }

                public func raw(completion: @escaping (Response) -> Void) {
                    let operationID = "GitHub.raw"
                    let handler: @Sendable () async throws -> Courier.Response
                    do {
                        handler = try registry.handler("raw(completion: @escaping (Response) -> Void)", as: (@Sendable () async throws -> Courier.Response).self, operationID: operationID)
                    } catch {
                        handler = {
                            throw error
                        }
                    }
                    registry.complete(completion, operationID: operationID) {
                        try await handler()
                    }
                }

                /// Sets what `raw(completion:)` answers: the closure receives the call's arguments.
                public func mockRaw(_ handler: @escaping @Sendable () async throws -> Courier.Response) {
                    registry.set("raw(completion: @escaping (Response) -> Void)", handler)
                }
            }
            """
        }
    }
}
