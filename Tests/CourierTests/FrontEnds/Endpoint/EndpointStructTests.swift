import Courier
import CourierTestSupport
import Foundation
import Testing

struct Profile: Codable, Equatable, Sendable {
    var name: String
    var age: Int
}

@Endpoint(.post, "/echo/profiles/{user_id}")
struct UpdateProfile {
    typealias Response = Echo

    @PathParameter(name: "user_id") var userID: String?
    @QueryItem var verbose: Bool?
    @QueryItem(name: "other_text") var otherText: String
    @QueryItem var tags: [String]
    @QueryFlag var dryRun: Bool
    @QueryFlag(name: "force") var forced: Bool
    @QueryItems var extra: [String: String]?
    @RequestHeader var authorization: String?
    @RequestHeader var requestID: String?
    @RequestHeader(name: "x-exact-NAME") var exact: String?
    @RequestHeaders var more: [String: String]?
    @RequestCookies var cookies: [Cookie]
    @RequestBody var body: Profile
}

@Endpoint(.put, "/echo/notes/:id")
struct PutNote {
    typealias Response = Echo
    @PathParameter var id: Int
    @RequestBody var body: String
}

@Endpoint(.post, "/echo/forms")
struct PostForm {
    typealias Response = Echo
    @RequestBody(.urlForm) var body: Profile
}

@Endpoint(.post, "/echo/raw")
struct PostRaw {
    typealias Response = Echo
    @RequestBody var body: Data
}

@Endpoint(.post, "/echo/fields")
struct PostFields {
    typealias Response = Echo
    @BodyField var name: String
    @BodyField(name: "years") var age: Int
    @QueryItem var page: Int
    @RequestHeader var requestID: String
}

@Endpoint(.get, "/echo/search")
struct SearchParams {
    typealias Response = Echo
    @Param var term: String
}

@Endpoint(.post, "/echo/search")
struct PostParams {
    typealias Response = Echo
    @Param var term: String
}

@Endpoint(.get, "/ignored")
struct AbsoluteRequest {
    typealias Response = Echo
    @AbsoluteURL var url: URL?
}

@Endpoint("PURGE", "/echo/cache")
struct PurgeCache {
    typealias Response = Echo
}

@Suite("Request structs: every parameter kind, checked by the server", .timeLimit(.minutes(2)))
struct EndpointStructTests {
    @Test("Path, query (named, optional, array, flags, dictionary), headers, cookies and a JSON body in one request")
    func everything() async throws {
        let request = UpdateProfile(
            userID: "ada/1", verbose: nil, otherText: "a b", tags: ["x", "y"], dryRun: true, forced: false,
            extra: ["z": "1", "a": "2"], authorization: "Bearer t", requestID: "r-1", exact: "e",
            more: ["X-More": "m"], cookies: [Cookie(name: "session", value: "abc%41"), Cookie(name: "theme", value: "dark; admin=1")],
            body: Profile(name: "Ada", age: 36)
        )
        let seen = try await TestServer.provider().send(request)
        #expect(seen.method == "POST")
        #expect(seen.path == "/echo/profiles/ada%2F1")
        #expect(seen.query == "other_text=a%20b&tags=x&tags=y&dryRun&a=2&z=1")
        #expect(seen.header("authorization") == "Bearer t")
        #expect(seen.header("request-id") == "r-1")
        #expect(seen.rawHeaderNames.contains("x-exact-NAME"))
        #expect(seen.header("x-more") == "m")
        // A value's `;` and space cannot start another cookie; an encoded value stays as it is.
        #expect(seen.header("cookie") == "session=abc%41; theme=dark%3B%20admin=1")
        #expect(seen.header("content-type") == "application/json")
        #expect(seen.header("accept") == "application/json")
        #expect(try JSONDecoder().decode(Profile.self, from: seen.bodyData) == Profile(name: "Ada", age: 36))
    }

    @Test("A nil optional path value is an error naming it, never the text nil")
    func nilPath() async throws {
        let request = UpdateProfile(
            userID: nil, verbose: true, otherText: "", tags: [], dryRun: false, forced: true, extra: nil,
            authorization: nil, requestID: nil, exact: nil, more: nil, cookies: [], body: Profile(name: "", age: 0)
        )
        let transport = RecordingTransport()
        let provider = Provider(baseURL: try await TestServer.baseURL(), transport: transport)
        let error = await #expect(throws: CourierError.self) { try await provider.send(request) }
        #expect(error?.message.contains("'user_id'") == true)
        #expect(transport.count == 0)
    }

    @Test("A String body is text, never labelled JSON; Data is raw bytes; URL form and fields")
    func bodyFormats() async throws {
        let provider = try await TestServer.provider()
        let text = try await provider.send(PutNote(id: 3, body: "plain words"))
        #expect(text.header("content-type") == "text/plain; charset=utf-8")
        #expect(text.bodyText == "plain words")
        #expect(text.path == "/echo/notes/3")

        let raw = try await provider.send(PostRaw(body: Data([1, 2, 3])))
        #expect(raw.header("content-type") == "application/octet-stream")
        #expect(raw.bodyData == Data([1, 2, 3]))

        let form = try await provider.send(PostForm(body: Profile(name: "A&B", age: 3)))
        #expect(form.header("content-type") == "application/x-www-form-urlencoded")
        #expect(form.bodyText == "name=A%26B&age=3")

        let fields = try await provider.send(PostFields(name: "Ada", age: 36, page: 2, requestID: "r"))
        #expect(fields.bodyText == #"{"name":"Ada","years":36}"#)
        #expect(fields.query == "page=2")
        #expect(fields.header("request-id") == "r")
    }

    @Test("@Param is a query item on GET and a body field on POST")
    func params() async throws {
        let provider = try await TestServer.provider()
        #expect(try await provider.send(SearchParams(term: "cats")).query == "term=cats")
        let post = try await provider.send(PostParams(term: "cats"))
        #expect(post.query == nil)
        #expect(post.bodyText == #"{"term":"cats"}"#)
    }

    @Test("An absolute URL replaces the base URL and path; a method given by name")
    func absoluteAndCustomMethod() async throws {
        let provider = Provider(baseURL: "http://127.0.0.1:1/unused")
        let url = try #require(URL(string: try await TestServer.baseURL("/echo/elsewhere?x=1")))
        let seen = try await provider.send(AbsoluteRequest(url: url))
        #expect(seen.target == "/echo/elsewhere?x=1")
        #expect(try await TestServer.provider().send(PurgeCache()).method == "PURGE")
    }
}

@Endpoint(.post, "/echo/upload")
struct UploadForm {
    typealias Response = Echo
    @RequestBody var form: MultipartForm
}

@Suite("Request structs: multipart bodies", .timeLimit(.minutes(2)))
struct EndpointMultipartTests {
    @Test("A MultipartForm body arrives with every part")
    func multipart() async throws {
        var form = MultipartForm()
        form.append("avatar", Part(data: Data([1, 2, 3]), fileName: "a.png", mimeType: "image/png"))
        form.append("name", Part(text: "Ada"))
        let seen = try await TestServer.provider().send(UploadForm(form: form))
        let contentType = try #require(seen.header("content-type"))
        let boundary = String(contentType.dropFirst("multipart/form-data; boundary=".count))
        let parts = try MultipartParser.parse(seen.bodyData, boundary: boundary)
        #expect(parts.map(\.disposition) == [#"form-data; name="avatar"; filename="a.png""#, #"form-data; name="name""#])
        #expect(parts.first?.contentType == "image/png")
        #expect(parts.last?.body == Data("Ada".utf8))
    }
}
