// Endpoints' spelling: a call sent with the parser that reads its response.

extension Provider {
    /// Sends `builder` and reads the response with `parser`: `send(Request(builder, receiving: parser))`.
    public func send<T>(_ builder: RequestBuilder, parser: ResponseDecoder<T>) async throws(CourierError) -> T {
        try await send(Request(builder, receiving: parser))
    }

    /// Sends `endpoint` — its validation and hook included — and reads the response with `parser`
    /// instead of the endpoint's own decoder.
    public func send<E: Endpoint, T>(_ endpoint: E, parser: ResponseDecoder<T>) async throws(CourierError) -> T {
        try await send(Request(endpoint).receiving(parser))
    }
}
