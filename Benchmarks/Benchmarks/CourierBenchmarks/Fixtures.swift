import BenchmarkModels
import Courier
import Foundation
import HTTPTypes
import OpenAPIRuntime

/// Reads the request body and answers 204 at once: what is measured is everything before the
/// network.
struct NullTransport: ClientTransport {
    func send(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String) async throws -> (HTTPResponse, HTTPBody?) {
        if let body { _ = try await Data(collecting: body, upTo: 1 << 20) }
        return (HTTPResponse(status: .noContent), nil)
    }
}

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
