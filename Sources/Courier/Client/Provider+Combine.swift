#if canImport(Combine)
public import Combine

extension Provider {
    /// A publisher that sends `request` when subscribed and emits its value once.
    public func publisher<Value>(for request: Request<Value>) -> AnyPublisher<Value, CourierError> {
        Deferred {
            Future { promise in
                // The promise is called once, from the task, as Combine expects.
                nonisolated(unsafe) let promise = promise
                deliver({ promise($0) }) { () async throws(CourierError) in try await self.send(request) }
            }
        }
        .eraseToAnyPublisher()
    }

    /// A publisher that sends `endpoint` when subscribed and emits its response once.
    public func publisher<E: Endpoint>(for endpoint: E) -> AnyPublisher<E.Response, CourierError> {
        publisher(for: Request(endpoint))
    }
}
#endif
