import Foundation

extension Provider {
    /// Sends `request` on a new task and calls `completion` with the result. The handler runs on
    /// that task, not on the caller's thread or actor.
    public func send<Value>(
        _ request: Request<Value>,
        completion: @escaping (Result<Value, CourierError>) -> Void
    ) {
        deliver(completion) { () async throws(CourierError) in try await self.send(request) }
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
        let placeholder = RawRequest.placeholder(
            method: builder.method,
            path: builder.path,
            baseURL: baseURL,
            operationID: builder.operationID ?? "\(builder.method) \(builder.path)"
        )
        deliver({ (result: Result<Response, CourierError>) in completion(Response(result, placeholder: placeholder)) }) {
            () async throws(CourierError) in try await self.send(builder, returning: Response.self)
        }
    }
}
