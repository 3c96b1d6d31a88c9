import Courier
import CourierTestSupport
import Foundation
import HTTPTypes
import Testing

@Suite("Headers and bodies, checked by the server", .timeLimit(.minutes(2)))
struct HeaderAndBodyTests {
    @Test("Headers arrive with their values; repeated headers are kept")
    func headers() async throws {
        var request = RequestBuilder(method: .get, path: "/echo")
        request.addHeader("X-Request-ID", value: "abc-123")
        request.addHeader("X-Count", value: 3)
        request.addHeader("X-Missing", value: Optional<String>.none)
        let seen = try await TestServer.provider().echo(request)
        #expect(seen.header("x-request-id") == "abc-123")
        #expect(seen.header("x-count") == "3")
        #expect(seen.header("x-missing") == nil)
    }

    @Test(
        "A header value with CR, LF or NUL is refused and nothing is sent",
        arguments: ["a\r\nX-Injected: 1", "a\nb", "a\rb", "a\0b"]
    )
    func injectionRefused(value: String) async throws {
        let mock = RecordingTransport()
        var request = RequestBuilder(method: .get, path: "/echo")
        request.addHeader("X-Note", value: value)
        let provider = Provider(baseURL: try await TestServer.baseURL(), transport: mock)
        let error = await #expect(throws: CourierError.self) { try await provider.echo(request) }
        #expect(error?.kind == .invalidRequest)
        #expect(error?.message.contains("'X-Note'") == true)
        #expect(mock.count == 0)
    }

    @Test("An invalid header name is refused, naming it", arguments: ["Bad Name", "X-Evil\r\n", "", "a:b"])
    func invalidName(name: String) async throws {
        var request = RequestBuilder(method: .get, path: "/echo")
        request.addHeader(name, value: "v")
        let error = await #expect(throws: CourierError.self) { try await TestServer.provider().echo(request) }
        #expect(error?.kind == .invalidRequest)
        #expect(error?.message.contains("header name") == true)
    }

    @Test("setHeader replaces earlier values")
    func setHeader() async throws {
        var request = RequestBuilder(method: .get, path: "/echo")
        request.addHeader("X-Mode", value: "a")
        request.setHeader("X-Mode", value: "b")
        #expect(try await TestServer.provider().echo(request).headerValues("x-mode") == ["b"])
    }

    @Test("No body: neither Content-Type nor a body is sent")
    func noBody() async throws {
        for method in [HTTPRequest.Method.get, .delete, .post] {
            let seen = try await TestServer.provider().echo(RequestBuilder(method: method, path: "/echo"))
            #expect(seen.header("content-type") == nil)
            #expect(seen.bodyIsEmpty)
            #expect(seen.method == method.rawValue)
        }
    }

    @Test("JSON body: bytes, Content-Type and Content-Length")
    func jsonBody() async throws {
        struct Todo: Codable, Equatable, Sendable { var name: String; var isDone: Bool; var tags: [String] }
        var request = RequestBuilder(method: .post, path: "/echo/todos")
        let todo = Todo(name: "write", isDone: false, tags: ["a", "b"])
        request.setBody(todo)
        let seen = try await TestServer.provider().echo(request)
        #expect(seen.header("content-type") == "application/json")
        #expect(seen.header("content-length") == String(seen.bodyData.count))
        #expect(try JSONDecoder().decode(Todo.self, from: seen.bodyData) == todo)
    }

    @Test("A body's Content-Type and Content-Length join the request's fields once, after its own; its own Content-Type stays, and its own Content-Length is replaced, or removed without a body of known length")
    func bodyFieldsJoinOnce() async throws {
        let provider = Provider(baseURL: "http://example.invalid/api")
        var plain = RequestBuilder(method: .post, path: "/todos")
        plain.addHeader("X-Trace", value: "t")
        plain.setBody(["a": 1])
        let (head, body) = try await provider.httpRequest(for: Request(plain, receiving: .response))
        let length = try #require(body).count
        #expect(head.headerFields.map(\.name) == [.init("X-Trace")!, .contentType, .contentLength])
        #expect(head.headerFields[values: .contentType] == ["application/json"])
        #expect(head.headerFields[values: .contentLength] == [String(length)])

        var own = RequestBuilder(method: .post, path: "/todos")
        own.addHeader("Content-Length", value: "999")
        own.addHeader("Content-Type", value: "application/vnd.todo+json")
        own.setBody(["a": 1])
        let (ownHead, _) = try await provider.httpRequest(for: Request(own, receiving: .response))
        #expect(ownHead.headerFields[values: .contentType] == ["application/vnd.todo+json"])
        #expect(ownHead.headerFields[values: .contentLength] == [String(length)])

        // With no body of known length, a Content-Length of the request's own is removed.
        var noBody = RequestBuilder(method: .get, path: "/todos")
        noBody.addHeader("Content-Length", value: "5")
        let (noBodyHead, _) = try await provider.httpRequest(for: Request(noBody, receiving: .response))
        #expect(noBodyHead.headerFields[values: .contentLength].isEmpty)
        var streamed = RequestBuilder(method: .post, path: "/todos")
        streamed.addHeader("Content-Length", value: "5")
        streamed.setBody(.stream(HTTPBody([UInt8]("chunks".utf8), length: .unknown, iterationBehavior: .single)))
        let (streamedHead, streamedBody) = try await provider.httpRequest(for: Request(streamed, receiving: .response))
        #expect(streamedHead.headerFields[values: .contentLength].isEmpty)
        #expect(streamedBody == Data("chunks".utf8))

        var text = RequestBuilder(method: .post, path: "/notes")
        text.setBody(.text("hi"))
        let (textHead, _) = try await provider.httpRequest(for: Request(text, receiving: .response))
        #expect(textHead.headerFields[values: .contentType] == ["text/plain; charset=utf-8"])
        #expect(textHead.headerFields[values: .contentLength] == ["2"])
    }

    @Test("A body's kind follows its type, through an optional too: text, bytes, JSON, or none for nil")
    func bodyKindByType() async throws {
        let provider = Provider(baseURL: "http://example.invalid/api")
        func sent(_ set: (inout RequestBuilder) -> Void) async throws -> (type: String?, body: String?) {
            var request = RequestBuilder(method: .post, path: "/notes")
            set(&request)
            let (head, body) = try await provider.httpRequest(for: Request(request, receiving: .response))
            return (head.headerFields[.contentType], body.map { String(decoding: $0, as: UTF8.self) })
        }
        #expect(try await sent { $0.setBody("hi") } == ("text/plain; charset=utf-8", "hi"))
        #expect(try await sent { $0.setBody(Optional("hi")) } == ("text/plain; charset=utf-8", "hi"))
        #expect(try await sent { $0.setBody(Data("hi".utf8)) } == ("application/octet-stream", "hi"))
        #expect(try await sent { $0.setBody(Optional(Data("hi".utf8))) } == ("application/octet-stream", "hi"))
        #expect(try await sent { $0.setBody(["a": 1]) } == ("application/json", #"{"a":1}"#))
        #expect(try await sent { $0.setBody(Optional(["a": 1])) } == ("application/json", #"{"a":1}"#))
        #expect(try await sent { $0.setBody(Optional<[String: Int]>.none) } == (nil, nil))
        #expect(try await sent { $0.setBody(Optional<String>.none) } == (nil, nil))
    }

    @Test("Fields are encoded together as one JSON object, keys sorted; nil fields are left out")
    func jsonFields() async throws {
        var request = RequestBuilder(method: .post, path: "/echo")
        request.addField("name", value: "Ada")
        request.addField("age", value: 36)
        request.addField("nickname", value: Optional<String>.none)
        let seen = try await TestServer.provider().echo(request)
        #expect(seen.bodyText == #"{"age":36,"name":"Ada"}"#)
        #expect(seen.header("content-type") == "application/json")
    }

    @Test("Text, integer, bool and double fields read the same as the same values in a struct, key mapping and float strategy included")
    func scalarFieldsMatchAStruct() async throws {
        struct Payload: Encodable, Sendable {
            var displayName = "Ada \u{1F600} \"quoted\""
            var userCount = Int.min
            var isDraft = true
            var ratio = 0.1
            var infinite = Double.infinity
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "+inf", negativeInfinity: "-inf", nan: "nan")
        var fields = RequestBuilder(method: .post, path: "/echo")
        var body = RequestBuilder(method: .post, path: "/echo")
        fields.bodyEncoder = encoder
        body.bodyEncoder = encoder
        let payload = Payload()
        fields.addField("displayName", value: payload.displayName)
        fields.addField("userCount", value: payload.userCount)
        fields.addField("isDraft", value: payload.isDraft)
        fields.addField("ratio", value: payload.ratio)
        fields.addField("infinite", value: payload.infinite)
        body.setBody(payload)
        let provider = try await TestServer.provider(keyMapping: .snakeCase)
        let viaFields = try await provider.echo(fields).bodyText
        #expect(viaFields == (try await provider.echo(body).bodyText))
        #expect(viaFields.contains(#""user_count":-9223372036854775808"#))
        #expect(viaFields.contains(#""infinite":"+inf""#))
    }

    @Test("Body keys follow the key mapping")
    func jsonKeyMapping() async throws {
        struct Payload: Encodable, Sendable { var userID = 1; var displayName = "A" }
        var request = RequestBuilder(method: .post, path: "/echo")
        request.setBody(Payload())
        request.addHeader("X-Test", value: "1")
        let seen = try await TestServer.provider(keyMapping: .snakeCase).echo(request)
        #expect(seen.bodyText == #"{"display_name":"A","user_id":1}"#)
        let custom = KeyMapping.custom(to: { $0.uppercased() }, from: { $0.lowercased() })
        let response = try await TestServer.provider(keyMapping: custom).send(Request(request, receiving: .response))
        let upper = try JSONDecoder().decode(Echo.self, from: response.body ?? Data())
        #expect(upper.bodyText == #"{"DISPLAYNAME":"A","USERID":1}"#)
    }

    @Test("URL form body: nested objects, arrays, stable order, reserved characters survive")
    func formBody() async throws {
        struct Address: Encodable, Sendable { var city = "Zürich"; var zip = "8000" }
        struct Form: Encodable, Sendable {
            var name = "a+b&c=d e"
            var tags = ["x", "y"]
            var address = Address()
            var isDone = true
        }
        var request = RequestBuilder(method: .post, path: "/echo")
        request.bodyEncoder = URLFormEncoder()
        request.setBody(Form())
        let seen = try await TestServer.provider().echo(request)
        #expect(seen.header("content-type") == "application/x-www-form-urlencoded")
        #expect(seen.bodyText == "name=a%2Bb%26c%3Dd+e&tags[]=x&tags[]=y&address[city]=Z%C3%BCrich&address[zip]=8000&isDone=true")
    }

    @Test("URL form fields with key mapping and repeated-key arrays")
    func formFields() async throws {
        var request = RequestBuilder(method: .post, path: "/echo")
        request.bodyEncoder = URLFormEncoder(arrayEncoding: .repeatedKey)
        request.keyMapping = .snakeCase
        request.addField("firstName", value: "Ada")
        request.addField("tagList", value: ["1", "2"])
        #expect(try await TestServer.provider().echo(request).bodyText == "first_name=Ada&tag_list=1&tag_list=2")
    }

    @Test("Raw data body with and without a content type")
    func dataBody() async throws {
        var request = RequestBuilder(method: .put, path: "/echo")
        request.setBody(.data(Data([0, 1, 2, 255]), contentType: "application/octet-stream"))
        let seen = try await TestServer.provider().echo(request)
        #expect(seen.bodyData == Data([0, 1, 2, 255]))
        #expect(seen.header("content-type") == "application/octet-stream")
        #expect(seen.header("content-length") == "4")
    }

    @Test("Text body is labelled text with its charset, never JSON")
    func textBody() async throws {
        var request = RequestBuilder(method: .post, path: "/echo")
        request.setBody(.text("café"))
        let seen = try await TestServer.provider().echo(request)
        #expect(seen.header("content-type") == "text/plain; charset=utf-8")
        #expect(seen.bodyText == "café")

        request.setBody(.text("café", contentType: "text/csv", encoding: .isoLatin1))
        let latin = try await TestServer.provider().echo(request)
        #expect(latin.header("content-type") == "text/csv; charset=iso-8859-1")
        #expect(latin.bodyData == Data([0x63, 0x61, 0x66, 0xE9]))
    }

    @Test("Text that the charset cannot hold is an encoding error")
    func textNotEncodable() async throws {
        var request = RequestBuilder(method: .post, path: "/echo")
        request.setBody(.text("日本", encoding: .ascii))
        let error = await #expect(throws: CourierError.self) { try await TestServer.provider().echo(request) }
        #expect(error?.kind == .encoding)
        #expect(error?.message.contains("us-ascii") == true)
    }

    @Test("A body and fields together is an error")
    func bodyAndFields() async throws {
        var request = RequestBuilder(method: .post, path: "/echo")
        request.setBody(["a": 1])
        request.addField("b", value: 2)
        let error = await #expect(throws: CourierError.self) { try await TestServer.provider().echo(request) }
        #expect(error?.kind == .invalidRequest)
    }

    @Test("A Content-Type set by hand wins over the encoder's")
    func explicitContentType() async throws {
        var request = RequestBuilder(method: .post, path: "/echo")
        request.addHeader("Content-Type", value: "application/vnd.api+json")
        request.setBody(["a": 1])
        #expect(try await TestServer.provider().echo(request).header("content-type") == "application/vnd.api+json")
    }

    @Test("Custom methods are sent as named; invalid method names are refused")
    func customMethods() async throws {
        let purge = try #require(HTTPRequest.Method("PURGE"))
        #expect(try await TestServer.provider().echo(RequestBuilder(method: purge, path: "/echo")).method == "PURGE")
        let error = await #expect(throws: CourierError.self) {
            // Only generated code passes a method by name (`@Endpoint("BAD METHOD", …)` is refused by the macro).
            try await TestServer.provider().echo(RequestBuilder.__make(method: "BAD METHOD", path: "/echo"))
        }
        #expect(error?.message.contains("'BAD METHOD'") == true)
    }
}
