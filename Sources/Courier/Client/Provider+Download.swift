public import Foundation

extension Provider {
    /// Sends `request`, writes its body to `url` as it arrives, and returns the response without
    /// a body. A body longer than `limit` bytes — ``responseBodyLimit`` unless you give one —
    /// fails with ``CourierError/Kind/responseTooLarge`` once the limit is reached.
    @discardableResult
    public func download(_ request: Request<StreamedResponse>, to url: URL, limit: Int64? = nil) async throws(CourierError) -> Response {
        let streamed = try await send(request)
        try await streamed.write(to: url, limit: limit ?? Int64(responseBodyLimit))
        return Response(head: streamed.head, body: nil, request: streamed.request)
    }
}
