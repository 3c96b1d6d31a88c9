@testable import CourierMacroExpansions
import MacroTesting
import SwiftSyntaxMacros
import Testing


@Suite("@API: headers, authorization and coders at both scopes", .macros(courierMacros))
struct APIAttributeMacroTests {
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

                func updateUser(id: Int, name: String) async throws {
                    try await provider.send(Requests.updateUser(id: id, name: name))
                }

                /// Each endpoint's request, built without sending it: to inspect, log, or send elsewhere.
                enum Requests {
                    /// The request of `getUser()`.
                    static func getUser() -> Courier.Request<User> {
                        return Courier.Request.__make(method: "GET", path: "/user", operationID: "Users.getUser", receiving: .__returning(User.self)) { request in
                            request.setHeader("X-Client-Version", value: "1.2.3")
                            request.setHeader("Cache-Control", value: "no-cache")
                            request.setAuthorization(.bearer("token"))
                            request.setHeader("Cache-Control", value: "max-age=86400")
                        }
                    }

                    /// The request of `updateUser(id:name:)`.
                    static func updateUser(id: Int, name: String) -> Courier.Request<Void> {
                        return Courier.Request.__make(method: "PATCH", path: "/user/:id", operationID: "Users.updateUser", receiving: .__returning(Void.self)) { request in
                            request.setHeader("X-Client-Version", value: "1.2.3")
                            request.setHeader("Cache-Control", value: "no-cache")
                            request.setAuthorization(.bearer("token"))
                            request.setAuthorization(.basic(username: "ada", password: "P@ssw0rd"))
                            request.addParameter("id", value: id)
                            request.addField("name", value: name)
                        }
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

            struct FormsAPI: Forms, Sendable {
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

                func upload(id: Int, file: Part, thumbnail: Part? = nil) async throws {
                    try await provider.send(Requests.upload(id: id, file: file, thumbnail: thumbnail))
                }

                func d(body: Body<Thing>) async throws -> Thing {
                    return try await provider.send(Requests.d(body: body))
                }

                /// Each endpoint's request, built without sending it: to inspect, log, or send elsewhere.
                enum Requests {
                    /// The request of `a(firstName:)`.
                    static func a(firstName: String) -> Courier.Request<Void> {
                        return Courier.Request.__make(method: "POST", path: "/a", operationID: "Forms.a", receiving: .__returning(Void.self)) { request in
                            request.keyMapping = .snakeCase
                            request.bodyEncoder = Courier.URLFormEncoder()
                            request.addField("firstName", value: firstName)
                        }
                    }

                    /// The request of `b(tags:)`.
                    static func b(tags: [String]) -> Courier.Request<Void> {
                        return Courier.Request.__make(method: "POST", path: "/b", operationID: "Forms.b", receiving: .__returning(Void.self)) { request in
                            request.keyMapping = .snakeCase
                            request.bodyEncoder = Courier.URLFormEncoder.init(arrayEncoding: .indexed)
                            request.addField("tags", value: tags)
                        }
                    }

                    /// The request of `c(at:)`.
                    static func c(at: Date) -> Courier.Request<Stamp> {
                        return Courier.Request.__make(method: "PUT", path: "/c", operationID: "Forms.c", receiving: .__returning(Stamp.self)) { request in
                            request.keyMapping = .snakeCase
                            request.keyMapping = .useDefaultKeys
                            request.__useJSON(encoder: .iso8601, decoder: .iso8601)
                            request.addField("at", value: at)
                        }
                    }

                    /// The request of `upload(id:file:thumbnail:)`.
                    static func upload(id: Int, file: Part, thumbnail: Part?) -> Courier.Request<Void> {
                        return Courier.Request.__make(method: "POST", path: "/upload/:id", operationID: "Forms.upload", receiving: .__returning(Void.self)) { request in
                            request.keyMapping = .snakeCase
                            request.addParameter("id", value: id)
                            request.__addPart("file", value: file)
                            request.__addPart("thumbnail", value: thumbnail)
                        }
                    }

                    /// The request of `d(body:)`.
                    static func d(body: Body<Thing>) -> Courier.Request<Thing> {
                        return Courier.Request.__make(method: "POST", path: "/d", operationID: "Forms.d", receiving: .__returning(Thing.self)) { request in
                            request.keyMapping = .snakeCase
                            request.bodyEncoder = MyEncoder()
                            request.bodyDecoder = MyDecoder()
                            request.__setBody(body)
                        }
                    }
                }
            }
            """
        }
    }
}
