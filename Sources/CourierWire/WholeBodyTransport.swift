public import Foundation
public import HTTPTypes
public import OpenAPIRuntime

/// A transport that can hand a small response body over read whole, as `Data`, saving the
/// `HTTPBody` that the pipeline would otherwise read back into `Data`; the head's fields may stay
/// in the transport's form until read. It takes the request and returns the response in the
/// shapes the pipeline itself carries, so that nothing converts between them.
package protocol WholeBodyTransport: ClientTransport {
    /// Sends `head` with `payload` to `baseURL` and reads a body of at most `limit` bytes whole;
    /// a longer body, or one of unknown length, comes as a stream.
    nonisolated(nonsending) func sendReadingWhole(
        _ head: HTTPRequest, payload: RequestPayload?, baseURL: URL, limit: Int
    ) async throws -> (ResponseHead, ReceivedBody)
}
