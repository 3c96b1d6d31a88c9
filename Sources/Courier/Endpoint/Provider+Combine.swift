#if canImport(Combine)
public import Combine

extension Provider {
    /// A publisher that sends `endpoint` when subscribed and emits its decoded response once.
    public func publisher<E: Endpoint>(for endpoint: E) -> AnyPublisher<E.Response, CourierError>
    where E.Response: Decodable & SendableMetatype {
        Self.publisher { () async throws(CourierError) in try await self.send(endpoint) }
    }

    /// A publisher that sends `endpoint` when subscribed and emits its typed response once.
    public func publisher<E: Endpoint>(for endpoint: E) -> AnyPublisher<E.Response, CourierError>
    where E.Response: ResponseDecodable {
        Self.publisher { () async throws(CourierError) in try await self.send(endpoint) }
    }

    /// Runs `work` on a new task for each subscription and emits its result once.
    static func publisher<Value>(_ work: @escaping @Sendable () async throws(CourierError) -> Value) -> AnyPublisher<Value, CourierError> {
        Deferred {
            Future { promise in
                // The promise is called once, from the task, as Combine expects.
                nonisolated(unsafe) let promise = promise
                Task {
                    do throws(CourierError) {
                        promise(.success(try await work()))
                    } catch {
                        promise(.failure(error))
                    }
                }
            }
        }
        .eraseToAnyPublisher()
    }
}
#endif
