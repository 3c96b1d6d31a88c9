import Courier
import CourierTestSupport
import Foundation
import Testing

struct FormPerson: Decodable, Equatable, Sendable {
    struct Address: Decodable, Equatable, Sendable { var city: String }
    var userName: String
    var age: Int
    var tags: [String]
    var address: Address
    var admin: Bool
}

/// The same person with the form's own key spelled out.
struct SpelledFormPerson: Decodable, Equatable, Sendable {
    var name: String
    var age: Int
    var tags: [String]
    enum CodingKeys: String, CodingKey {
        case name = "user_name"
        case age, tags
    }
}

@EndpointResponse(format: .urlForm)
struct FormPersonResponse {
    @ResponseBody var person: SpelledFormPerson?
}

@Endpoint(.get, "/form-response")
struct GetFormPerson {
    typealias Response = FormPersonResponse
}

@Suite("Response parsers and URL-encoded form responses", .timeLimit(.minutes(2)))
struct ParserAndFormTests {
    @Test("A URL-encoded form response decodes: nested keys, arrays, numbers, booleans, key mapping")
    func formResponse() async throws {
        let provider = try await TestServer.provider()
        let person = try await provider.send(GetFormPerson()).person
        #expect(person == SpelledFormPerson(name: "Ada Lovelace", age: 36, tags: ["a", "b"]))
        let decoder = URLFormDecoder(keyMapping: .snakeCase)
        let response = try await provider.send(Request(RequestBuilder(method: .get, path: "/form-response"), receiving: .response))
        let decoded = try decoder.decode(FormPerson.self, from: response.body ?? Data())
        #expect(decoded == FormPerson(userName: "Ada Lovelace", age: 36, tags: ["a", "b"], address: .init(city: "Zürich"), admin: true))
    }

    @Test("The parser catalogue: data, string, JSON, dictionary, no content, string-convertible")
    func parsers() async throws {
        let provider = try await TestServer.provider()
        #expect(try await provider.send(RequestBuilder(method: .get, path: "/bytes"), parser: .data) == Data([0, 1, 2, 255]))
        #expect(try await provider.send(RequestBuilder(method: .get, path: "/latin1"), parser: .text) == "café")
        #expect(try await provider.send(RequestBuilder(method: .get, path: "/users/4"), parser: .json(TestUser.self)) == TestUser(id: 4, name: "Ada"))
        let dictionary = try await provider.send(RequestBuilder(method: .get, path: "/users/5"), parser: .json([String: JSONValue].self))
        #expect(dictionary["id"] == .number(5))
        #expect(dictionary["name"] == .string("Ada"))
        try await provider.send(RequestBuilder(method: .get, path: "/empty"), parser: .none)
        #expect(try await provider.send(RequestBuilder(method: .get, path: "/count"), parser: .value(Int.self)) == 42)
    }

    @Test("Parsers check the status first and name what failed")
    func parserErrors() async throws {
        let provider = try await TestServer.provider()
        let status = await #expect(throws: CourierError.self) {
            try await provider.send(RequestBuilder(method: .get, path: "/status/404"), parser: .json([String: JSONValue].self))
        }
        #expect(status?.kind == .status)
        let notANumber = await #expect(throws: CourierError.self) {
            try await provider.send(RequestBuilder(method: .get, path: "/text"), parser: .value(Int.self))
        }
        #expect(notANumber?.kind == .decoding)
        #expect(notANumber?.message.contains("Int") == true)
    }

    @Test("A parser sets Accept unless the request set one")
    func accept() async throws {
        let provider = try await TestServer.provider()
        let seen = try await provider.send(RequestBuilder(method: .get, path: "/echo/accept"), parser: .json(Echo.self))
        #expect(seen.header("accept") == "application/json")
        var own = RequestBuilder(method: .get, path: "/echo/accept")
        own.addHeader("Accept", value: "application/vnd.custom+json")
        #expect(try await provider.send(own, parser: .json(Echo.self)).header("accept") == "application/vnd.custom+json")
    }
}
