import Courier
import Foundation
import HTTPTypes
import OpenAPIRuntime

struct User: Codable, Sendable {
    var id: Int
    var login: String
    var name: String
    var email: String
    var company: String
    var location: String
    var bio: String
    var followers: Int
    var following: Int
    var isAdmin: Bool
}

struct NewIssue: Codable, Sendable {
    var title: String
    var body: String
    var assignee: String
    var milestone: Int
    var draft: Bool
}

/// The endpoint of the build benchmark: two path values, three query items, a five-field body.
@API
protocol Issues {
    @POST("/orgs/:org/repos/:repo/issues")
    func create(
        org: String, repo: String,
        label: Query<String>, page: Query<Int>, sort: Query<String>,
        title: String, body: String, assignee: String, milestone: Int, draft: Bool
    ) async throws
}

@API
protocol Users {
    @GET("/users/:id")
    func user(id: Int) async throws -> User

    @POST("/users")
    func create(user: Body<User>) async throws -> User

    @POST("/upload")
    func upload(data: Body<HTTPBody>) async throws -> String

    @GET("/download/:count")
    func download(count: Int) async throws -> StreamedResponse
}

/// Reads the request body and answers 204 at once: what is measured is everything before the
/// network.
struct NullTransport: ClientTransport {
    func send(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String) async throws -> (HTTPResponse, HTTPBody?) {
        if let body { _ = try await Data(collecting: body, upTo: 1 << 20) }
        return (HTTPResponse(status: .noContent), nil)
    }
}

let sampleUser = User(
    id: 42, login: "ada", name: "Ada Lovelace", email: "ada@example.com", company: "Analytical Engines",
    location: "London", bio: "First programmer", followers: 1815, following: 1852, isAdmin: false
)

/// Percent-encodes a path segment or query component the way a careful hand-written client would.
let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

func handBuiltIssueRequest(org: String, repo: String, label: String, page: Int, sort: String, issue: NewIssue, encoder: JSONEncoder) throws -> (HTTPRequest, Data) {
    func encode(_ text: String) -> String { text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? text }
    let path = "/orgs/\(encode(org))/repos/\(encode(repo))/issues?label=\(encode(label))&page=\(page)&sort=\(encode(sort))"
    let body = try encoder.encode(issue)
    var request = HTTPRequest(method: .post, scheme: nil, authority: nil, path: path)
    request.headerFields[.contentType] = "application/json"
    request.headerFields[.contentLength] = String(body.count)
    return (request, body)
}

/// One event of the event-stream benchmarks.
struct Tick: Codable, Sendable, Hashable {
    var n: Int
}

@API
protocol Events {
    @GET("/events/:count")
    func events(count: Int) async throws -> ServerSentEvents<Tick>
}
