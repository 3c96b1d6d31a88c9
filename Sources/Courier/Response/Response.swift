public import Foundation
public import HTTPTypes

/// A response as it arrived: status, headers, body bytes, and the request that produced it.
public struct Response: Sendable {
    /// Status and headers.
    public var head: HTTPResponse
    /// The body's bytes; `nil` when the response had no body or an empty one.
    public var body: Data?
    /// The request that produced this response.
    public var request: RawRequest

    public init(head: HTTPResponse, body: Data?, request: RawRequest) {
        self.head = head
        self.body = body.flatMap { $0.isEmpty ? nil : $0 }
        self.request = request
    }

    /// The status.
    public var status: HTTPResponse.Status { head.status }

    /// The status code, optional as in Papyrus so that code written for it keeps compiling.
    public var statusCode: Int? { head.status.code }

    /// The headers.
    public var headers: HTTPFields { head.headerFields }

    /// The body as UTF-8 text, when there is a body.
    public var bodyText: String? { body.map { String(decoding: $0, as: UTF8.self) } }

    /// Whether the status is in 200–299.
    public var isSuccess: Bool { head.status.kind == .successful }

    /// A ``CourierError`` of kind ``CourierError/Kind/status`` when the status is outside
    /// 200–299, `nil` otherwise.
    public var error: CourierError? {
        guard !isSuccess else { return nil }
        return CourierError(.status(head.status), operationID: request.operationID, request: request, response: self)
    }

    /// Throws ``error`` when the status is outside 200–299.
    public func validate() throws(CourierError) {
        if let error { throw error }
    }
}

extension Response: CustomStringConvertible {
    public var description: String {
        "\(head.status.code) \(head.status.displayPhrase) for \(request.method) \(request.path), \(body?.count ?? 0) bytes"
    }
}
