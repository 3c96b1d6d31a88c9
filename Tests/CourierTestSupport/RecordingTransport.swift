public import Foundation
import Courier
public import HTTPTypes
public import OpenAPIRuntime

/// Counts the requests that reach it and answers 200 with an empty JSON object; used to prove
/// that refused requests never reach a transport.
public final class RecordingTransport: ClientTransport {
    private let received = Locked(0)

    public init() {}

    public var count: Int { received.withLock { $0 } }

    public func send(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String) async throws -> (HTTPResponse, HTTPBody?) {
        received.withLock { $0 += 1 }
        return (HTTPResponse(status: .ok), HTTPBody("{}"))
    }
}
