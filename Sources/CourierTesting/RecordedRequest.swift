public import Foundation
public import HTTPTypes

/// A request as a ``MockTransport`` received it, body read into memory.
public struct RecordedRequest: Sendable {
    /// Method, path with query, headers: read through `method`, `path`, `queryItems` and
    /// `headers`.
    var head: HTTPRequest
    /// The body's bytes, `nil` when there was none.
    public var body: Data?
    /// The base URL the request was sent against.
    var baseURL: URL
    /// The endpoint's name, such as `"Users.getUser"`.
    public var operationID: String
    /// Values of the `:name` segments of the stub's route that matched this request, decoded.
    public var parameters: [String: String] = [:]

    /// The method.
    public var method: HTTPRequest.Method { head.method }
    /// The path without the query, percent-encoded as sent.
    public var path: String { String((head.path ?? "/").prefix { $0 != "?" }) }
    /// The query as sent, without `?`; `nil` when there is none.
    var query: String? {
        guard let target = head.path, let mark = target.firstIndex(of: "?") else { return nil }
        return String(target[target.index(after: mark)...])
    }
    /// The query items, decoded, in order.
    public var queryItems: [(name: String, value: String?)] {
        guard let query else { return [] }
        return query.split(separator: "&", omittingEmptySubsequences: true).map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(parts[0]).removingPercentEncoding ?? String(parts[0])
            let value = parts.count > 1 ? (String(parts[1]).removingPercentEncoding ?? String(parts[1])) : nil
            return (name, value)
        }
    }
    /// The headers.
    public var headers: HTTPFields { head.headerFields }

    /// Decodes the body as JSON.
    public func decodeBody<T: Decodable>(_ type: T.Type, using decoder: JSONDecoder = JSONDecoder()) throws -> T {
        try decoder.decode(T.self, from: body ?? Data())
    }
}
