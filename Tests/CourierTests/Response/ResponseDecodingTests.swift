import Courier
import CourierTestSupport
import Foundation
import Testing

@Suite("Responses decoded into every supported return type, from the server", .timeLimit(.minutes(2)))
struct ResponseDecodingTests {
    func get(_ path: String) -> RequestBuilder { RequestBuilder(method: .get, path: path, operationID: "Test.get") }

    @Test("Decodable")
    func decodable() async throws {
        #expect(try await TestServer.provider().send(Request(get("/users/7"), receiving: .json(TestUser.self))) == TestUser(id: 7, name: "Ada"))
    }

    @Test("Snake-case keys decode with the key mapping")
    func snakeCase() async throws {
        struct Profile: Decodable, Equatable { var userId: Int; var displayName: String; var isAdmin: Bool }
        let profile = try await TestServer.provider(keyMapping: .snakeCase).send(Request(get("/snake"), receiving: .json(Profile.self)))
        #expect(profile == Profile(userId: 7, displayName: "Ada Lovelace", isAdmin: true))
    }

    @Test("Optional: nil on an empty body, the value otherwise")
    func optional() async throws {
        let provider = try await TestServer.provider()
        #expect(try await provider.send(Request(get("/empty"), receiving: .json(TestUser?.self))) == nil)
        #expect(try await provider.send(Request(get("/empty-ok"), receiving: .json(TestUser?.self))) == nil)
        #expect(try await provider.send(Request(get("/users/3"), receiving: .json(TestUser?.self))) == TestUser(id: 3, name: "Ada"))
    }

    @Test("Data: the bytes; empty bytes for a 204; an error on another empty body")
    func data() async throws {
        let provider = try await TestServer.provider()
        #expect(try await provider.send(Request(get("/bytes"), receiving: .data)) == Data([0, 1, 2, 255]))
        #expect(try await provider.send(Request(get("/empty"), receiving: .data)) == Data())
        let error = await #expect(throws: CourierError.self) { try await provider.send(Request(get("/empty-ok"), receiving: .data)) }
        #expect(error?.kind == .decoding)
        #expect(error?.response?.statusCode == 200)
    }

    @Test("Data?: nil on an empty body")
    func optionalData() async throws {
        let provider = try await TestServer.provider()
        #expect(try await provider.send(Request(get("/empty"), receiving: .__returning(Data?.self))) == nil)
        #expect(try await provider.send(Request(get("/bytes"), receiving: .__returning(Data?.self))) == Data([0, 1, 2, 255]))
    }

    @Test("String: decoded in the charset the response names")
    func string() async throws {
        let provider = try await TestServer.provider()
        #expect(try await provider.send(Request(get("/text"), receiving: .text)) == "héllo")
        #expect(try await provider.send(Request(get("/latin1"), receiving: .text)) == "café")
        #expect(try await provider.send(Request(get("/empty"), receiving: .text)) == "")
    }

    @Test("Void: only the status is checked")
    func void() async throws {
        let provider = try await TestServer.provider()
        try await provider.send(Request(get("/empty"), receiving: .none))
        let error = await #expect(throws: CourierError.self) { try await provider.send(Request(get("/status/500"), receiving: .none)) }
        #expect(error?.kind == .status)
    }

    @Test("Response: returned whatever the status, with the error readable")
    func response() async throws {
        let provider = try await TestServer.provider()
        let ok = try await provider.send(Request(get("/users/1"), receiving: .response))
        #expect(ok.statusCode == 200)
        #expect(ok.error == nil)
        #expect(ok.request?.path == "/users/1")
        let missing = try await provider.send(Request(get("/status/404"), receiving: .response))
        #expect(missing.statusCode == 404)
        #expect(missing.error?.kind == .status)
        #expect(missing.bodyText?.contains("status 404") == true)
    }

    @Test("(T, Response): both")
    func tuple() async throws {
        let (user, response) = try await TestServer.provider().send(Request(get("/users/5"), receiving: .withResponse(.json(TestUser.self))))
        #expect(user.id == 5)
        #expect(response.headers[.contentType] == "application/json")
    }

    @Test("A non-2xx status carries status, headers and body")
    func statusError() async throws {
        let error = await #expect(throws: CourierError.self) {
            try await TestServer.provider().send(Request(get("/status/422"), receiving: .json(TestUser.self)))
        }
        #expect(error?.kind == .status)
        #expect(error?.response?.status == .unprocessableContent)
        #expect(error?.response?.headers[.contentType] == "application/json")
        #expect(error?.response?.bodyText == #"{"error":"status 422","code":422}"#)
        #expect(error?.operationID == "Test.get")
        #expect(error?.description.contains("422 Unprocessable") == true)  // the phrase is the server's on AsyncHTTPClient
    }

    @Test("A decoding failure names the type and coding path, and shows the body's start")
    func decodingError() async throws {
        let error = await #expect(throws: CourierError.self) {
            try await TestServer.provider().send(Request(get("/invalid-json"), receiving: .json(TestUser.self)))
        }
        #expect(error?.kind == .decoding)
        #expect(error?.message.contains("TestUser") == true)
        #expect(error?.message.contains("'id'") == true)
        #expect(error?.message.contains(#"{"id":"seven""#) == true)
        #expect(error?.underlyingError is DecodingError)
    }
}
