import Foundation

/// Runs `work` on a new task and hands its result to `completion` once, from that task — the
/// one bridge from async code to completion handlers.
func deliver<Value, Failure: Error>(
    _ completion: @escaping (Result<Value, Failure>) -> Void,
    _ work: @escaping @Sendable () async throws(Failure) -> Value
) {
    // The caller hands the handler over and never calls it itself.
    nonisolated(unsafe) let completion = completion
    Task {
        do throws(Failure) {
            completion(.success(try await work()))
        } catch {
            completion(.failure(error))
        }
    }
}

extension RawRequest {
    /// Stands in for a request that never reached a transport, so that a failure can still be
    /// reported as a ``Response``.
    static func placeholder(method: HTTPRequest.Method = .get, path: String = "/", baseURL: URL?, operationID: String) -> RawRequest {
        RawRequest(
            head: HTTPRequest(method: method, scheme: nil, authority: nil, path: path),
            baseURL: baseURL ?? URL(fileURLWithPath: "/"),
            operationID: operationID
        )
    }
}

extension Response {
    /// The response a `(Response) -> Void` handler receives for `result`.
    init(_ result: Result<Response, CourierError>, placeholder: @autoclosure () -> RawRequest) {
        switch result {
        case .success(let response): self = response
        case .failure(let error): self.init(failure: error, request: error.request ?? placeholder())
        }
    }
}
