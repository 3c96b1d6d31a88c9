import Foundation
import HTTPTypes

/// The storage behind generated `<Name>Mock` types: one handler per endpoint, set and read under
/// a lock so that a mock can be shared by concurrent tests. Generated code is its only intended
/// user.
public final class MockRegistry: Sendable {
    private let handlers = Locked<[String: any Sendable]>([:])

    public init() {}

    /// Stores `handler` for the endpoint `key`, replacing an earlier one.
    public func set(_ key: String, _ handler: any Sendable) {
        handlers.withLock { $0[key] = handler }
    }

    /// The handler stored for `key`; a ``CourierError/Kind/unmocked`` error naming the endpoint
    /// when there is none.
    public func handler<Handler>(_ key: String, as type: Handler.Type, operationID: String) throws(CourierError) -> Handler {
        guard let handler = handlers.withLock({ $0[key] }) as? Handler else {
            throw CourierError.unmocked(operationID, detail: "set one with the mock's setter for \(key) before calling it")
        }
        return handler
    }

    /// Runs `body` on a new task and reports its result to a completion handler, for mocked
    /// completion-handler endpoints.
    public func complete<Value>(
        _ completion: @escaping (Result<Value, any Error>) -> Void,
        _ body: @escaping @Sendable () async throws -> Value
    ) {
        // Handed over by the caller and called once, from the task.
        nonisolated(unsafe) let completion = completion
        Task {
            do {
                completion(.success(try await body()))
            } catch {
                completion(.failure(error))
            }
        }
    }
}

extension MockRegistry {
    /// Runs `body` on a new task and reports its response — or a response standing for its
    /// error — to a `(Response) -> Void` completion handler.
    public func complete(
        _ completion: @escaping (Response) -> Void,
        operationID: String,
        _ body: @escaping @Sendable () async throws -> Response
    ) {
        // Handed over by the caller and called once, from the task.
        nonisolated(unsafe) let completion = completion
        Task {
            do {
                completion(try await body())
            } catch {
                let failure = error as? CourierError ?? CourierError.transport(error, operationID: operationID)
                let request = RawRequest(
                    head: HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/"),
                    baseURL: URL(fileURLWithPath: "/"),
                    operationID: operationID
                )
                completion(Response(failure: failure, request: failure.request ?? request))
            }
        }
    }
}

/// A value behind a lock.
final class Locked<Value>: @unchecked Sendable {
    // Unchecked: `locked_value` is only touched while `lock` is held.
    private let lock = NSLock()
    private var locked_value: Value

    init(_ value: Value) { locked_value = value }

    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&locked_value)
    }
}
