#if canImport(Combine)
public import Combine

extension Provider {
    /// A publisher that sends `endpoint` when subscribed and emits its decoded response once.
    public func publisher<E: Endpoint>(for endpoint: E) -> AnyPublisher<E.Response, CourierError>
    where E.Response: Decodable & SendableMetatype {
        let provider = self
        return Deferred {
            Future { promise in
                // The promise is called once, from the task, as Combine expects.
                nonisolated(unsafe) let promise = promise
                Task {
                    do throws(CourierError) {
                        promise(.success(try await provider.send(endpoint)))
                    } catch {
                        promise(.failure(error))
                    }
                }
            }
        }
        .eraseToAnyPublisher()
    }

    /// A publisher that sends `endpoint` when subscribed and emits its typed response once.
    public func publisher<E: Endpoint>(for endpoint: E) -> AnyPublisher<E.Response, CourierError>
    where E.Response: ResponseDecodable {
        let provider = self
        return Deferred {
            Future { promise in
                // The promise is called once, from the task, as Combine expects.
                nonisolated(unsafe) let promise = promise
                Task {
                    do throws(CourierError) {
                        promise(.success(try await provider.send(endpoint)))
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
