@testable import CourierMacroExpansions
import MacroTesting
import SwiftSyntaxMacros
import Testing


@Suite("@API: return types and completion handlers", .macros(courierMacros))
struct APIReturnMacroTests {
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

            struct FilesAPI: Files, Sendable {
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
                        return Courier.Request.__make(method: "GET", path: "/files/:name.json", operationID: "Files.file", receiving: .__returning(File?.self)) { request in
                            request.addParameter("name", value: name)
                        }
                    }

                    /// The request of `raw()`.
                    static func raw() -> Courier.Request<Data> {
                        return Courier.Request.__make(method: "GET", path: "/raw", operationID: "Files.raw", receiving: .__returning(Data.self))
                    }

                    /// The request of `text()`.
                    static func text() -> Courier.Request<String> {
                        return Courier.Request.__make(method: "GET", path: "/text", operationID: "Files.text", receiving: .__returning(String.self))
                    }

                    /// The request of `both(key:)`.
                    static func both(key: String) -> Courier.Request<(File, Response)> {
                        return Courier.Request.__make(method: "GET", path: "/cache/:key", operationID: "Files.both", receiving: .__returning((File, Response).self)) { request in
                            request.addParameter("key", value: key)
                        }
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

            struct UsersAPI: Users, Sendable {
                /// Sends this API's requests.
                let provider: Courier.Provider

                /// A client that sends every request through `provider`.
                init(provider: Courier.Provider) {
                    self.provider = provider
                }

                func getUser(callback: @escaping (Result<User, any Error>) -> Void) {
                    provider.__send(Requests.getUser(), completion: callback)
                }

                func createUser(email: String, completion: @escaping (Result<Void, any Error>) -> Void) {
                    provider.__send(Requests.createUser(email: email), completion: completion)
                }

                func getResponse(completion: @escaping (Response) -> Void) {
                    provider.__send(Requests.getResponse(), completion: completion)
                }

                /// Each endpoint's request, built without sending it: to inspect, log, or send elsewhere.
                enum Requests {
                    /// The request of `getUser(callback:)`.
                    static func getUser() -> Courier.Request<User> {
                        return Courier.Request.__make(method: "GET", path: "/user", operationID: "Users.getUser", receiving: .__returning(User.self))
                    }

                    /// The request of `createUser(email:completion:)`.
                    static func createUser(email: String) -> Courier.Request<Void> {
                        return Courier.Request.__make(method: "POST", path: "/user", operationID: "Users.createUser", receiving: .__returning(Void.self)) { request in
                            request.addField("email", value: email)
                        }
                    }

                    /// The request of `getResponse(completion:)`.
                    static func getResponse() -> Courier.Request<Courier.Response> {
                        return Courier.Request.__make(method: "GET", path: "/response", operationID: "Users.getResponse", receiving: .__returning(Courier.Response.self))
                    }
                }
            }
            """
        }
    }
}
