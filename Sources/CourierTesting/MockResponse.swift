public import Foundation
public import HTTPTypes

/// What a ``MockTransport`` answers: a status, headers and a body.
public struct MockResponse: Sendable {
    /// The status sent back; `200 OK` unless given.
    var status: HTTPResponse.Status
    /// The header fields sent back; ``MockTransport`` adds `Content-Length` when a body has none.
    var headers: HTTPFields
    /// The body's bytes; `nil` for a response without a body.
    var body: Data?

    /// A response with `status`, `headers` and `body`, sent back as given.
    public init(status: HTTPResponse.Status = .ok, headers: HTTPFields = [:], body: Data? = nil) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// `value` encoded as JSON.
    public static func json(
        _ value: some Encodable,
        status: HTTPResponse.Status = .ok,
        encoder: JSONEncoder = JSONEncoder()
    ) throws -> MockResponse {
        MockResponse(status: status, headers: [.contentType: "application/json"], body: try encoder.encode(value))
    }

    /// A plain-text body.
    public static func text(_ text: String, status: HTTPResponse.Status = .ok) -> MockResponse {
        MockResponse(status: status, headers: [.contentType: "text/plain; charset=utf-8"], body: Data(text.utf8))
    }

    /// Raw bytes.
    public static func data(_ data: Data, contentType: String? = nil, status: HTTPResponse.Status = .ok) -> MockResponse {
        var headers: HTTPFields = [:]
        if let contentType { headers[.contentType] = contentType }
        return MockResponse(status: status, headers: headers, body: data)
    }
}
