@testable import CourierMacroExpansions
import MacroTesting
import Testing

@Suite(.macros(courierMacros))
struct DiagnosticsTests {
    @Test("@API and @Mock on something other than a protocol")
    func notAProtocol() {
        assertMacro {
            """
            @API
            struct Users {}

            @Mock
            enum Things {}
            """
        } diagnostics: {
            """
            @API
            ┬───
            ╰─ 🛑 @API can only be attached to a protocol; declare the endpoints as requirements of a protocol
            struct Users {}

            @Mock
            ┬────
            ╰─ 🛑 @Mock can only be attached to a protocol; declare the endpoints as requirements of a protocol
            enum Things {}
            """
        }
    }

    @Test("Every problem of a protocol is reported at once, on its own node")
    func everyProblemAtOnce() {
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

                @POST("/items")
                func bodyAndField(a: Body<Int>, b: Field<Int>) async throws
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
                     ┬───────────
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

                @POST("/items")
                func bodyAndField(a: Body<Int>, b: Field<Int>) async throws
                                                ┬────────────
                                                ╰─ 🛑 a Body parameter cannot be combined with fields; make the fields properties of the body, or mark them Query or Header
            }
            """
        }
    }

    @Test("A function that is neither async throws nor has a completion handler gets a fix-it")
    func notAsyncThrows() {
        assertMacro {
            """
            @API
            protocol Users {
                @GET("/user")
                func getUser() -> User

                @GET("/users")
                func list() async -> [User]

                @DELETE("/user")
                func delete() throws
            }
            """
        } diagnostics: {
            """
            @API
            protocol Users {
                @GET("/user")
                func getUser() -> User
                            ┬─────────
                            ╰─ 🛑 an endpoint must be 'async throws' (or take a completion handler) because sending a request suspends and can fail
                               ✏️ add 'async throws'

                @GET("/users")
                func list() async -> [User]
                         ┬─────────────────
                         ╰─ 🛑 an endpoint must be 'async throws' (or take a completion handler) because sending a request suspends and can fail
                            ✏️ add 'async throws'

                @DELETE("/user")
                func delete() throws
                           ┬────────
                           ╰─ 🛑 an endpoint must be 'async throws' (or take a completion handler) because sending a request suspends and can fail
                              ✏️ add 'async throws'
            }
            """
        } fixes: {
            """
            @API
            protocol Users {
                @GET("/user")
                func getUser() async throws -> User

                @GET("/users")
                func list() async throws -> [User]

                @DELETE("/user")
                func delete() async throws
            }
            """
        } expansion: {
            """
            protocol Users {
                func getUser() async throws -> User
                func list() async throws -> [User]
                func delete() async throws
            }

            struct UsersAPI: Users, Sendable {
                /// Sends this API's requests.
                let provider: Courier.Provider

                /// A client that sends every request through `provider`.
                init(provider: Courier.Provider) {
                    self.provider = provider
                }

                func getUser() async throws -> User {
                    return try await provider.send(Requests.getUser())
                }

                func list() async throws -> [User] {
                    return try await provider.send(Requests.list())
                }

                func delete() async throws {
                    try await provider.send(Requests.delete())
                }

                /// Each endpoint's request, built without sending it: to inspect, log, or send elsewhere.
                enum Requests {
                    /// The request of `getUser()`.
                    static func getUser() -> Courier.Request<User> {
                        return Courier.Request.__make(method: "GET", path: "/user", operationID: "Users.getUser", receiving: .__returning(User.self))
                    }

                    /// The request of `list()`.
                    static func list() -> Courier.Request<[User]> {
                        return Courier.Request.__make(method: "GET", path: "/users", operationID: "Users.list", receiving: .__returning([User].self))
                    }

                    /// The request of `delete()`.
                    static func delete() -> Courier.Request<Void> {
                        return Courier.Request.__make(method: "DELETE", path: "/user", operationID: "Users.delete", receiving: .__returning(Void.self))
                    }
                }
            }
            """
        }
    }

    @Test("Malformed completion handlers")
    func malformedCompletion() {
        assertMacro {
            """
            @API
            protocol Users {
                @GET("/a")
                func notEscaping(completion: (Result<User, Error>) -> Void)

                @GET("/b")
                func notLast(completion: @escaping (Result<User, Error>) -> Void, id: Int)

                @GET("/c")
                func wrongArgument(completion: @escaping (User) -> Void)

                @GET("/d")
                func returnsToo(completion: @escaping (Result<User, Error>) -> Void) -> Int
            }
            """
        } diagnostics: {
            """
            @API
            protocol Users {
                @GET("/a")
                func notEscaping(completion: (Result<User, Error>) -> Void)
                                 ┬────────────────────────────────────────
                                 ╰─ 🛑 a completion handler must be the last parameter, '@escaping (Result<T, any Error>) -> Void' or '@escaping (Response) -> Void', on a function with no return type

                @GET("/b")
                func notLast(completion: @escaping (Result<User, Error>) -> Void, id: Int)
                             ┬───────────────────────────────────────────────────
                             ╰─ 🛑 a completion handler must be the last parameter, '@escaping (Result<T, any Error>) -> Void' or '@escaping (Response) -> Void', on a function with no return type

                @GET("/c")
                func wrongArgument(completion: @escaping (User) -> Void)
                                   ┬───────────────────────────────────
                                   ╰─ 🛑 a completion handler must be the last parameter, '@escaping (Result<T, any Error>) -> Void' or '@escaping (Response) -> Void', on a function with no return type

                @GET("/d")
                func returnsToo(completion: @escaping (Result<User, Error>) -> Void) -> Int
                                ┬──────────────────────────────────────────────────
                                ╰─ 🛑 a completion handler must be the last parameter, '@escaping (Result<T, any Error>) -> Void' or '@escaping (Response) -> Void', on a function with no return type
            }
            """
        }
    }

    @Test("Unsupported return types")
    func unsupportedReturnTypes() {
        assertMacro {
            """
            @API
            protocol Odd {
                @GET("/a")
                func closure() async throws -> () -> Void

                @GET("/b")
                func opaque() async throws -> some Decodable

                @GET("/c")
                func existential() async throws -> any Decodable

                @GET("/d")
                func triple() async throws -> (User, User)
            }
            """
        } diagnostics: {
            """
            @API
            protocol Odd {
                @GET("/a")
                func closure() async throws -> () -> Void
                                               ┬─────────
                                               ╰─ 🛑 this return type cannot be produced from a response; return a Decodable type, Data, String, Response, (T, Response), an optional of those, or nothing

                @GET("/b")
                func opaque() async throws -> some Decodable
                                              ┬─────────────
                                              ╰─ 🛑 this return type cannot be produced from a response; return a Decodable type, Data, String, Response, (T, Response), an optional of those, or nothing

                @GET("/c")
                func existential() async throws -> any Decodable
                                                   ┬────────────
                                                   ╰─ 🛑 this return type cannot be produced from a response; return a Decodable type, Data, String, Response, (T, Response), an optional of those, or nothing

                @GET("/d")
                func triple() async throws -> (User, User)
                                              ┬───────────
                                              ╰─ 🛑 this return type cannot be produced from a response; return a Decodable type, Data, String, Response, (T, Response), an optional of those, or nothing
            }
            """
        }
    }

    @Test("@URLForm with @Multipart, and a non-Part field under @Multipart")
    func multipartMisuse() {
        assertMacro {
            """
            @API
            protocol Uploads {
                @URLForm
                @Multipart
                @POST("/a")
                func both(file: Part) async throws

                @Multipart
                @POST("/b")
                func notAPart(file: Part, note: String) async throws
            }
            """
        } diagnostics: {
            """
            @API
            protocol Uploads {
                @URLForm
                @Multipart
                ┬─────────
                ╰─ 🛑 @URLForm and @Multipart cannot both apply to one endpoint; keep the one that matches the body
                @POST("/a")
                func both(file: Part) async throws

                @Multipart
                @POST("/b")
                func notAPart(file: Part, note: String) async throws
                                                ┬─────
                                                ╰─ 🛑 under @Multipart every body parameter must be a Part; wrap the value in Part(data:fileName:mimeType:) or mark it Query or Header
            }
            """
        }
    }

    @Test("Invalid static header names and values")
    func invalidHeaders() {
        assertMacro {
            #"""
            @API
            @Headers(["Bad Name": "x"])
            protocol Users {
                @Headers(["X-Ok": "a\r\nX-Injected: 1"])
                @GET("/user")
                func getUser() async throws -> User
            }
            """#
        } diagnostics: {
            #"""
            @API
            @Headers(["Bad Name": "x"])
                      ┬─────────
                      ╰─ 🛑 this is not a valid header name; use letters, digits and !#$%&'*+-.^_`|~ only
            protocol Users {
                @Headers(["X-Ok": "a\r\nX-Injected: 1"])
                                  ┬───────────────────
                                  ╰─ 🛑 a header value cannot contain CR, LF or NUL; they would split or cut the header
                @GET("/user")
                func getUser() async throws -> User
            }
            """#
        }
    }

    @Test("A path without a leading slash is a warning with a fix-it; a path that is not a literal is an error")
    func paths() {
        assertMacro {
            """
            @API
            protocol Users {
                @GET("users/:id")
                func getUser(id: Int) async throws -> User

                @GET(userPath)
                func other() async throws -> User
            }
            """
        } diagnostics: {
            """
            @API
            protocol Users {
                @GET("users/:id")
                     ┬──────────
                     ╰─ ⚠️ the path should start with '/'; it is appended to the provider's base URL
                        ✏️ insert '/'
                func getUser(id: Int) async throws -> User

                @GET(userPath)
                     ┬───────
                     ╰─ 🛑 the path must be a string literal without interpolation, so that it can be checked at compile time
                func other() async throws -> User
            }
            """
        }
    }
}
