public import Foundation
public import HTTPTypes
public import OpenAPIRuntime

/// Counts the requests that reach it and answers 200 with an empty JSON object; used to prove
/// that refused requests never reach a transport.
public final class RecordingTransport: ClientTransport, @unchecked Sendable {
    // Unchecked: `locked_count` is only touched while `lock` is held.
    private let lock = NSLock()
    private var locked_count = 0

    public init() {}

    public var count: Int { lock.withLock { locked_count } }

    public func send(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String) async throws -> (HTTPResponse, HTTPBody?) {
        lock.withLock { locked_count += 1 }
        return (HTTPResponse(status: .ok), HTTPBody("{}"))
    }
}
