import Foundation

extension Provider {
    /// Sends `request` on a new task and calls `completion` with the result. The handler runs on
    /// that task, not on the caller's thread or actor.
    public func send<Value>(
        _ request: Request<Value>,
        completion: @escaping (Result<Value, CourierError>) -> Void
    ) {
        Self.complete(completion) { () async throws(CourierError) in try await self.send(request) }
    }

    /// For generated completion-handler endpoints: sends `request` and reports a value or any
    /// error.
    public func send<Value>(
        _ request: Request<Value>,
        completion: @escaping (Result<Value, any Error>) -> Void
    ) {
        send(request) { (result: Result<Value, CourierError>) in
            completion(result.mapError { $0 })
        }
    }

    /// For generated `(Response) -> Void` endpoints: sends `builder` and reports the response,
    /// or a response standing for the failure when none arrived.
    public func send(_ builder: RequestBuilder, completion: @escaping (Response) -> Void) {
        nonisolated(unsafe) let completion = completion
        Task {
            do throws(CourierError) {
                completion(try await send(builder, returning: Response.self))
            } catch {
                let request = error.request ?? placeholderRequest(for: builder)
                completion(Response(failure: error, request: request))
            }
        }
    }

    /// Stands in for a request that could not be built, so that a failure can still be reported.
    func placeholderRequest(for builder: RequestBuilder) -> RawRequest {
        RawRequest(
            head: HTTPRequest(method: builder.method, scheme: nil, authority: nil, path: builder.path),
            baseURL: baseURL ?? URL(fileURLWithPath: "/"),
            operationID: builder.operationID ?? "\(builder.method) \(builder.path)"
        )
    }
}
