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
}
