import Courier
import CourierTestSupport
import Foundation
import Testing

enum SortOrder: String, Codable, Sendable {
    case newest, oldest
}

@Endpoint(.get, "/echo/sorted")
struct SortedSearch {
    typealias Response = Echo
    @QueryItem var sort: SortOrder? = nil
    @QueryItem var sorts: [SortOrder] = []
}

@URLForm
@Endpoint(.post, "/echo/form-fields")
struct FormFields {
    typealias Response = Echo
    @BodyField var name: String
    @BodyField var age: Int
}

@JSON(encoder: sortedKeysEncoder())
@Endpoint(.post, "/echo/json-fields")
struct JSONFields {
    typealias Response = Echo
    @BodyField var name: String
    @BodyField var age: Int
}

/// JSON with keys in a fixed order, so that the test can compare the body's bytes.
func sortedKeysEncoder() -> JSONEncoder {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    return encoder
}

@Endpoint
struct PerValueRoute {
    typealias Response = Echo
    @RequestHTTPMethod var method: HTTPRequest.Method = .get
    @RequestPath var path = "/echo/apps/{id}"
    @PathParameter var id: Int
}

@Endpoint(.get, "/echo/params")
struct ParamByMethod {
    typealias Response = Echo
    @RequestHTTPMethod var method: HTTPRequest.Method = .get
    @Param var name: String
}

@Endpoint(.post, "/echo/text")
struct UTF16Text {
    typealias Response = Echo
    @RequestBody(.text(encoding: .utf16BigEndian)) var body: String
}

@Endpoint(.get, "/echo/hooked")
struct HookedRequest {
    typealias Response = Echo
    var signature: String { "abc" }

    func beforeSending(_ request: inout RawRequest) throws {
        request.headers[HTTPField.Name("X-Signature")!] = signature + ":" + request.path
    }
}

@Endpoint(.get, "/echo/refused-hook")
struct RefusingHook {
    typealias Response = Echo

    func beforeSending(_ request: inout RawRequest) throws { throw Refused() }
}

@Suite("Request structs: what Postie's and APIKit's users expect", .timeLimit(.minutes(1)))
struct RequestStructSeedTests {
    @Test("An optional Codable String enum is a query item; nil is left out")
    func optionalEnumQuery() async throws {
        let provider = try await TestServer.provider()
        #expect(try await provider.send(SortedSearch(sort: .newest, sorts: [.oldest, .newest])).query == "sort=newest&sorts=oldest&sorts=newest")
        #expect(try await provider.send(SortedSearch()).query == nil)
    }

    @Test("@URLForm and @JSON on a request struct choose its fields' format, with one provider")
    func perRequestFormat() async throws {
        let provider = try await TestServer.provider()
        let form = try await provider.send(FormFields(name: "Ada L", age: 36))
        #expect(form.header("content-type") == "application/x-www-form-urlencoded")
        #expect(form.bodyText == "name=Ada+L&age=36")
        let json = try await provider.send(JSONFields(name: "Ada L", age: 36))
        #expect(json.header("content-type") == "application/json")
        #expect(json.bodyText == #"{"age":36,"name":"Ada L"}"#)
    }

    @Test("Method and path per value, relative to the base URL, with placeholders filled")
    func perValueRoute() async throws {
        let provider = try await TestServer.provider("/api/v1")
        let get = try await provider.send(PerValueRoute(id: 3))
        #expect(get.method == "GET")
        #expect(get.path == "/api/v1/echo/apps/3")
        let post = try await provider.send(PerValueRoute(method: .post, path: "/echo/apps/{id}/contacts", id: 4))
        #expect(post.method == "POST")
        #expect(post.path == "/api/v1/echo/apps/4/contacts")
    }

    @Test("@Param follows the method set per value: a query item for GET, a body field for POST")
    func paramFollowsMethod() async throws {
        let provider = try await TestServer.provider()
        let get = try await provider.send(ParamByMethod(name: "ada"))
        #expect(get.query == "name=ada")
        #expect(get.bodyIsEmpty)
        let post = try await provider.send(ParamByMethod(method: .post, name: "ada"))
        #expect(post.query == nil)
        #expect(post.bodyText == #"{"name":"ada"}"#)
    }

    @Test("A text body in another encoding is sent in it and labelled with its charset")
    func textEncoding() async throws {
        let echo = try await TestServer.provider().send(UTF16Text(body: "hé"))
        #expect(echo.header("content-type") == "text/plain; charset=utf-16be")
        #expect(echo.bodyData == Data([0x00, 0x68, 0x00, 0xE9]))
    }

    @Test("A request struct's own hook changes its encoded request; an error it throws fails the call")
    func requestHook() async throws {
        let provider = try await TestServer.provider()
        #expect(try await provider.send(HookedRequest()).header("x-signature") == "abc:/echo/hooked")
        #expect(try await provider.send(Request(HookedRequest())).header("x-signature") == "abc:/echo/hooked")
        let recording = RecordingTransport()
        let refused = await #expect(throws: CourierError.self) {
            try await Provider(baseURL: "http://127.0.0.1:1", transport: recording).send(RefusingHook())
        }
        #expect(refused?.kind == .modifier)
        #expect(refused?.stage?.contains("RefusingHook.beforeSending") == true)
        #expect(recording.count == 0)
    }
}
