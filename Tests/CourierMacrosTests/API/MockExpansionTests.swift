@testable import CourierMacroExpansions
import MacroTesting
import SwiftSyntaxMacros
import Testing


@Suite("@Mock: generated test doubles", .macros(courierMacros))
struct MockExpansionTests {
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
                private let registry = Courier.__MockRegistry.__make()

                /// A mock with no answers set; every endpoint throws until you set one.
                public init() {
                }

                public func getRepositories(username: String) async throws -> [Repository] {
                    let handler = try registry.__handler("getRepositories(username: String)", as: (@Sendable (String) async throws -> [Repository]).self, operationID: "GitHub.getRepositories")
                    return try await handler(username)
                }

                /// Sets what `getRepositories(username:)` answers: the closure receives the call's arguments.
                public func mockGetRepositories(_ handler: @escaping @Sendable (String) async throws -> [Repository]) {
                    registry.__set("getRepositories(username: String)", handler)
                }

                public func find(id: Int) async throws -> Repository {
                    let handler = try registry.__handler("find(id: Int)", as: (@Sendable (Int) async throws -> Repository).self, operationID: "GitHub.find")
                    return try await handler(id)
                }

                /// Sets what `find(id:)` answers: the closure receives the call's arguments.
                public func mockFindId(_ handler: @escaping @Sendable (Int) async throws -> Repository) {
                    registry.__set("find(id: Int)", handler)
                }
                /// Sets what `find(id:)` answers: the closure receives the call's arguments.
                public func mockFind(_ handler: @escaping @Sendable (Int) async throws -> Repository) {
                    registry.__set("find(id: Int)", handler)
                }

                public func find(name: String) async throws -> Repository {
                    let handler = try registry.__handler("find(name: String)", as: (@Sendable (String) async throws -> Repository).self, operationID: "GitHub.find")
                    return try await handler(name)
                }

                /// Sets what `find(name:)` answers: the closure receives the call's arguments.
                public func mockFindName(_ handler: @escaping @Sendable (String) async throws -> Repository) {
                    registry.__set("find(name: String)", handler)
                }
                /// Sets what `find(name:)` answers: the closure receives the call's arguments.
                public func mockFind(_ handler: @escaping @Sendable (String) async throws -> Repository) {
                    registry.__set("find(name: String)", handler)
                }

                public func search(q: String) async throws -> [Repository] {
                    let handler = try registry.__handler("search(q: String)", as: (@Sendable (String) async throws -> [Repository]).self, operationID: "GitHub.search")
                    return try await handler(q)
                }

                /// Sets what `search(q:)` answers: the closure receives the call's arguments.
                public func mockSearchQString(_ handler: @escaping @Sendable (String) async throws -> [Repository]) {
                    registry.__set("search(q: String)", handler)
                }
                /// Sets what `search(q:)` answers: the closure receives the call's arguments.
                public func mockSearch(_ handler: @escaping @Sendable (String) async throws -> [Repository]) {
                    registry.__set("search(q: String)", handler)
                }

                public func search(q: Int) async throws -> [Repository] {
                    let handler = try registry.__handler("search(q: Int)", as: (@Sendable (Int) async throws -> [Repository]).self, operationID: "GitHub.search")
                    return try await handler(q)
                }

                /// Sets what `search(q:)` answers: the closure receives the call's arguments.
                public func mockSearchQInt(_ handler: @escaping @Sendable (Int) async throws -> [Repository]) {
                    registry.__set("search(q: Int)", handler)
                }
                /// Sets what `search(q:)` answers: the closure receives the call's arguments.
                public func mockSearch(_ handler: @escaping @Sendable (Int) async throws -> [Repository]) {
                    registry.__set("search(q: Int)", handler)
                }

                public func clear() async throws {
                    let handler = try registry.__handler("clear()", as: (@Sendable () async throws -> Void).self, operationID: "GitHub.clear")
                    try await handler()
                }

                /// Sets what `clear()` answers: the closure receives the call's arguments.
                public func mockClear(_ handler: @escaping @Sendable () async throws -> Void) {
                    registry.__set("clear()", handler)
                }

                public func user(completion: @escaping (Result<User, any Error>) -> Void) {
                    let operationID = "GitHub.user"
                    let handler: @Sendable () async throws -> User
                    do {
                        handler = try registry.__handler("user(completion: @escaping (Result<User, Error>) -> Void)", as: (@Sendable () async throws -> User).self, operationID: operationID)
                    } catch {
                        handler = {
                            throw error
                        }
                    }
                    registry.__complete(completion) {
                        try await handler()
                    }
                }

                /// Sets what `user(completion:)` answers: the closure receives the call's arguments.
                public func mockUser(_ handler: @escaping @Sendable () async throws -> User) {
                    registry.__set("user(completion: @escaping (Result<User, Error>) -> Void)", handler)
                }

                public func raw(completion: @escaping (Response) -> Void) {
                    let operationID = "GitHub.raw"
                    let handler: @Sendable () async throws -> Courier.Response
                    do {
                        handler = try registry.__handler("raw(completion: @escaping (Response) -> Void)", as: (@Sendable () async throws -> Courier.Response).self, operationID: operationID)
                    } catch {
                        handler = {
                            throw error
                        }
                    }
                    registry.__complete(completion, operationID: operationID) {
                        try await handler()
                    }
                }

                /// Sets what `raw(completion:)` answers: the closure receives the call's arguments.
                public func mockRaw(_ handler: @escaping @Sendable () async throws -> Courier.Response) {
                    registry.__set("raw(completion: @escaping (Response) -> Void)", handler)
                }
            }
            """
        }
    }
}
