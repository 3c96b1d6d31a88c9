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

extension Response {
    /// The response a `(Response) -> Void` handler receives for `result`: the response, or one
    /// that carries the error.
    init(_ result: Result<Response, CourierError>) {
        switch result {
        case .success(let response): self = response
        case .failure(let error): self = Response(failure: error)
        }
    }
}
