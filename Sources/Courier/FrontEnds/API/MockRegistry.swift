import Foundation
import HTTPTypes

/// For generated code: the storage behind `<Name>Mock` types, one handler per endpoint, set and
/// read under a lock so that a mock can be shared by concurrent tests. Public only because macro
/// expansions compile in the user's module; the `__` prefix keeps it out of DocC and completion.
public final class __MockRegistry: Sendable {
    private let handlers = Locked<[String: any Sendable]>([:])

    private init() {}

    /// An empty registry; a generated mock stores its endpoints' handlers in it.
    public static func __make() -> __MockRegistry { __MockRegistry() }

    /// Stores `handler` for the endpoint `key`, replacing an earlier one.
    public func __set(_ key: String, _ handler: any Sendable) {
        handlers.withLock { $0[key] = handler }
    }

    /// The handler stored for `key`; a ``CourierError/Kind/unmocked`` error naming the endpoint
    /// when there is none.
    public func __handler<Handler>(_ key: String, as type: Handler.Type, operationID: String) throws(CourierError) -> Handler {
        guard let handler = handlers.withLock({ $0[key] }) as? Handler else {
            throw CourierError.unmocked(operationID, detail: "set one with the mock's setter for \(key) before calling it")
        }
        return handler
    }

    /// Runs `body` on a new task and reports its result to a completion handler, for mocked
    /// completion-handler endpoints.
    public func __complete<Value>(
        _ completion: @escaping (Result<Value, any Error>) -> Void,
        _ body: @escaping @Sendable () async throws -> Value
    ) {
        deliver(completion, body)
    }

    /// Runs `body` on a new task and reports its response — or a response standing for its
    /// error — to a `(Response) -> Void` completion handler.
    public func __complete(
        _ completion: @escaping (Response) -> Void,
        operationID: String,
        _ body: @escaping @Sendable () async throws -> Response
    ) {
        deliver({ (result: Result<Response, CourierError>) in
            completion(Response(result))
        }) { () async throws(CourierError) in
            do {
                return try await body()
            } catch let error as CourierError {
                throw error
            } catch {
                throw CourierError.transport(error, operationID: operationID)
            }
        }
    }
}
