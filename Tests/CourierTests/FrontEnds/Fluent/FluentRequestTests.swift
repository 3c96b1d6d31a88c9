import Courier
import CourierTestSupport
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

extension HTTPField.Name {
    static let applicationKey = HTTPField.Name("X-Application-Key")!
}

extension BodyContent {
    /// A body provider of the tests' own: CSV text.
    static func csv(_ rows: [[String]]) -> BodyContent {
        BodyContent { request in
            request.setBody(.text(rows.map { $0.joined(separator: ",") }.joined(separator: "\n"), contentType: "text/csv"))
        }
    }
}

extension Credentials {
    static func apiKey(_ key: String) -> Credentials {
        Credentials { request in request.setHeader("X-API-Key", value: key) }
    }
}

/// The test server as an API, with a part every request starts with.
struct TestAPI: WebService {
    let baseURL: URL
    let provider: Provider

    init() async throws {
        baseURL = try #require(URL(string: try await TestServer.baseURL()))
        provider = Provider(baseURL: baseURL)
    }

    func request<T>(_ method: HTTPRequest.Method, _ path: String, receiving decoder: ResponseDecoder<T>) -> Request<T> {
        Request(method, path, receiving: decoder).header(.applicationKey, "app-1")
    }
}

@Suite("The fluent request value", .timeLimit(.minutes(2)))
struct FluentRequestTests {
    @Test("GET with a decoder, path value and query; the API's default parts included")
    func get() async throws {
        let api = try await TestAPI()
        let user = try await api.send(api.get(.json(TestUser.self), from: "/users/:id").parameter("id", 8))
        #expect(user == TestUser(id: 8, name: "Ada"))
        let seen = try await api.send(api.get(.json(Echo.self), from: "/echo/search").query("q", "a b").query(["limit": "30", "page": "2"]))
        #expect(seen.query == "q=a%20b&limit=30&page=2")
        #expect(seen.header("x-application-key") == "app-1")
    }

    @Test("Every method, and the body providers: JSON, form, multipart, text with encoding, data, file, stream")
    func bodies() async throws {
        let api = try await TestAPI()
        let echo = ResponseDecoder<Echo>.json(Echo.self)
        let json = try await api.send(api.post(.json(TestUser(id: 1, name: "A")), to: "/echo/json").receiving(echo))
        #expect(json.method == "POST")
        #expect(json.bodyText == #"{"id":1,"name":"A"}"#)
        let form = try await api.send(api.put("/echo/form", with: .form(TestUser(id: 2, name: "B&C"))).receiving(echo))
        #expect(form.method == "PUT")
        #expect(form.bodyText == "id=2&name=B%26C")
        var parts = MultipartForm()
        parts.append("f", Part(data: Data("x".utf8), fileName: "x.txt", mimeType: "text/plain"))
        let multipart = try await api.send(api.patch("/echo/multipart", with: .multipart(parts)).receiving(echo))
        #expect(multipart.header("content-type")?.hasPrefix("multipart/form-data; boundary=") == true)
        let text = try await api.send(api.post(.text("café", encoding: .isoLatin1), to: "/echo/text").receiving(echo))
        #expect(text.header("content-type") == "text/plain; charset=iso-8859-1")
        #expect(text.bodyData == Data([0x63, 0x61, 0x66, 0xE9]))
        let data = try await api.send(api.post(.data(Data([9]), contentType: "application/x-nine"), to: "/echo/data").receiving(echo))
        #expect(data.header("content-type") == "application/x-nine")
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("courier-fluent-\(UUID().uuidString)")
        try Data("from a file".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        #expect(try await api.send(api.post(.file(file), to: "/echo/file").receiving(echo)).bodyText == "from a file")
        #expect(try await api.send(api.post(.stream(HTTPBody("streamed")), to: "/echo/stream").receiving(echo)).bodyText == "streamed")
        #expect(try await api.send(api.delete("/echo/x").receiving(echo)).method == "DELETE")
        #expect(try await api.send(api.request(.init("PURGE")!, "/echo/x", receiving: .none).receiving(echo)).method == "PURGE")
        #expect(try await api.send(api.head("/head")).headers[HTTPField.Name("X-Head")!] == "yes")
    }

    @Test("Response decoders: text, text in an encoding, data, none, and a custom closure over status, headers and body")
    func decoders() async throws {
        let api = try await TestAPI()
        #expect(try await api.send(api.get(.text, from: "/text")) == "héllo")
        #expect(try await api.send(api.get(.text(encoding: .isoLatin1), from: "/latin1")) == "café")
        #expect(try await api.send(api.get(.data, from: "/bytes")) == Data([0, 1, 2, 255]))
        try await api.send(api.get("/empty"))
        let custom = ResponseDecoder<String>.custom { status, headers, body in
            "\(status.code) \(headers[.contentType] ?? "") \(body?.count ?? 0)"
        }
        #expect(try await api.send(api.get(custom, from: "/bytes")) == "200 application/octet-stream 4")
        let failing = ResponseDecoder<Int>.custom { _, _, _ in throw CocoaError(.coderInvalidValue) }
        let error = await #expect(throws: CourierError.self) { try await api.send(api.get(failing, from: "/bytes")) }
        #expect(error?.kind == .decoding)
    }

    @Test("Headers set, added and removed; authentication: bearer, basic, custom")
    func headersAndAuthentication() async throws {
        let api = try await TestAPI()
        let base = api.get(.json(Echo.self), from: "/echo/h")
            .header(.accept, "text/plain")
            .addingHeader(.cacheControl, "no-cache")
            .addingHeader(.cacheControl, "no-store")
            .header(.userAgent, "courier-tests")
            .removingHeader(.userAgent)
        let bearer = try await api.send(base.credentials(.bearer("t-1")))
        #expect(bearer.header("authorization") == "Bearer t-1")
        #expect(bearer.headerValues("cache-control").joined(separator: ", ") == "no-cache, no-store")
        #expect(bearer.header("accept") == "text/plain")
        let basic = try await api.send(base.credentials(.basic(username: "ada", password: "pw")))
        #expect(basic.header("authorization") == "Basic " + Data("ada:pw".utf8).base64EncodedString())
        #expect(try await api.send(base.credentials(.apiKey("k"))).header("x-api-key") == "k")

        let replaced = try await api.send(base.headers([.accept: "application/json", .applicationKey: "app-2"]))
        #expect(replaced.header("accept") == "application/json")
        #expect(replaced.header("x-application-key") == "app-2")
        #expect(replaced.header("cache-control") == nil)

        let csv = try await api.send(api.post(.csv([["a", "b"], ["1", "2"]]), to: "/echo/csv").receiving(.json(Echo.self)))
        #expect(csv.header("content-type") == "text/csv; charset=utf-8")
        #expect(csv.bodyText == "a,b\n1,2")
    }

    @Test("Every part survives every step in any order; receiving keeps authentication and timeout")
    func orderIndependence() async throws {
        let api = try await TestAPI()
        typealias Step = @Sendable (Request<Void>) -> Request<Void>
        let steps: [Step] = [
            { $0.parameter("id", 5) },
            { $0.query("q", "x") },
            { $0.header(.applicationKey, "override") },
            { $0.body(.json(TestUser(id: 1, name: "A"))) },
            { $0.credentials(.bearer("t")) },
            // Long enough that a slow machine (ThreadSanitizer beside other suites) never hits it:
            // the bound is one of the parts, not what this test times.
            { $0.timeout(.seconds(60)) },
        ]
        var results: [String] = []
        for order in [[0, 1, 2, 3, 4, 5], [5, 4, 3, 2, 1, 0], [3, 0, 5, 1, 4, 2], [4, 2, 0, 5, 3, 1]] {
            let request = order.reduce(api.request(.post, "/echo/items/:id", receiving: .none)) { request, index in steps[index](request) }
            let (head, body) = try await api.provider.httpRequest(for: request.receiving(.json(Echo.self)))
            results.append("\(head.method) \(head.path ?? "") \(head.headerFields.map { "\($0.name)=\($0.value)" }.sorted()) \(String(decoding: body ?? Data(), as: UTF8.self))")
            let seen = try await api.send(request.receiving(.json(Echo.self)))
            #expect(seen.header("authorization") == "Bearer t")
            #expect(seen.path == "/echo/items/5")
        }
        #expect(Set(results).count == 1)
        #expect(results.first?.contains("Authorization=Bearer t") == true)
    }

    @Test("A timeout fails with the timeout kind and cancels the request")
    func timeout() async throws {
        let api = try await TestAPI()
        let clock = ContinuousClock()
        let start = clock.now
        let error = await #expect(throws: CourierError.self) {
            try await api.send(api.get(.data, from: "/slow").timeout(.milliseconds(300)))
        }
        #expect(error?.kind == .timeout)
        // /slow answers after 30 s: only the 300 ms bound ends the call this soon, with room for
        // a slow machine.
        #expect(clock.now - start < .seconds(20))
    }

    @Test("Built without sending: HTTPRequest and body, and URLRequest, field by field")
    func buildWithoutSending() async throws {
        let api = try await TestAPI()
        let request = api.post(.json(TestUser(id: 3, name: "C")), to: "/users/:id/notes")
            .parameter("id", "a/b")
            .query("draft", true)
            .credentials(.bearer("t"))
            .timeout(.seconds(2))
            .header(HTTPField.Name("X-Request-ID")!, "r-1")
        let (head, body) = try await api.provider.httpRequest(for: request)
        #expect(head.method == .post)
        #expect(head.path == "/users/a%2Fb/notes?draft=true")
        #expect(head.headerFields[.authorization] == "Bearer t")
        #expect(head.headerFields[.applicationKey] == "app-1")
        #expect(head.headerFields[.contentType] == "application/json")
        #expect(head.headerFields[.contentLength] == "19")
        #expect(body == Data(#"{"id":3,"name":"C"}"#.utf8))

        let urlRequest = try await api.provider.urlRequest(for: request)
        #expect(urlRequest.url?.absoluteString == api.baseURL.absoluteString + "/users/a%2Fb/notes?draft=true")
        #expect(urlRequest.httpMethod == "POST")
        #expect(urlRequest.value(forHTTPHeaderField: "Authorization") == "Bearer t")
        #expect(urlRequest.value(forHTTPHeaderField: "Content-Type") == "application/json")
        #expect(urlRequest.httpBody == body)
        #expect(urlRequest.timeoutInterval == 2)
        // Names as written, as the URLSession transport sends them (`addValue` recases on Linux).
        #expect(urlRequest.allHTTPHeaderFields?["X-Request-ID"] == "r-1")
    }

    @Test("Bad input fails before anything is sent: invalid header, unencodable body, missing path value")
    func badInput() async throws {
        let transport = RecordingTransport()
        let provider = Provider(baseURL: try await TestServer.baseURL(), transport: transport)
        let base = Request<Void>(.post, "/items/:id", receiving: .none)
        let invalidHeader = base.parameter("id", 1).modified { $0.addHeader("X-Bad", value: "a\r\nb") }
        let unencodable = base.parameter("id", 1).body(.json(["ratio": Double.nan]))
        let missing = base
        for request in [invalidHeader, unencodable, missing] {
            let error = await #expect(throws: CourierError.self) { try await provider.send(request) }
            #expect([.invalidRequest, .encoding].contains(error?.kind))
        }
        #expect(transport.count == 0)
    }

    @Test("Every front-end reaches the request value: @API endpoints and request structs")
    func frontEnds() async throws {
        let provider = try await TestServer.provider()
        let fromMacro: Request<Echo> = LibraryAPI.Requests.getPost(id: 12)
        let (head, _) = try await provider.httpRequest(for: fromMacro)
        #expect(head.path == "/echo/posts/12")
        #expect(fromMacro.builder.operationID == "Library.getPost")
        #expect(try await provider.send(fromMacro.credentials(.bearer("m"))).header("authorization") == "Bearer m")

        let fromStruct = Request(PutNote(id: 4, body: "note"))
        let (structHead, structBody) = try await provider.httpRequest(for: fromStruct)
        #expect(structHead.method == .put)
        #expect(structHead.path == "/echo/notes/4")
        #expect(structBody == Data("note".utf8))
        #expect(try await provider.send(fromStruct).bodyText == "note")
    }

    @Test("Sent with a completion handler")
    func completion() async throws {
        let api = try await TestAPI()
        let user = try await withCheckedThrowingContinuation { continuation in
            api.provider.send(api.get(.json(TestUser.self), from: "/users/3")) { (result: Result<TestUser, CourierError>) in
                continuation.resume(with: result)
            }
        }
        #expect(user.id == 3)
    }
}
