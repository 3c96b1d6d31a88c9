public import Foundation
public import HTTPTypes
public import OpenAPIRuntime

/// A response whose body is read as it arrives: an `AsyncSequence` of byte chunks, never held
/// whole in memory by Courier.
///
/// ```swift
/// let download = try await provider.stream(RequestBuilder(method: .get, path: "/exports/latest"))
/// for try await chunk in download.body { hash.update(chunk) }
/// ```
///
/// Where the transport buffers (URLSession on Linux has no streaming API), the body still arrives
/// whole first; AsyncHTTPClient streams.
public struct StreamedResponse: Sendable {
    /// Status and headers.
    public var head: HTTPResponse
    /// The body, chunk by chunk. It can be read once.
    public var body: HTTPBody
    /// The request that produced this response.
    public var request: RawRequest

    /// The status.
    public var status: HTTPResponse.Status { head.status }
    /// The status code.
    public var statusCode: Int { head.status.code }
    /// The headers.
    public var headers: HTTPFields { head.headerFields }

    /// Reads the whole body, failing past `limit` bytes.
    public func collect(upTo limit: Int) async throws(CourierError) -> Data {
        try await collectResponseBody(body, limit: limit) ?? Data()
    }

    /// Writes the body to `url` chunk by chunk, replacing any file there, and returns the number
    /// of bytes written.
    @discardableResult
    public func write(to url: URL) async throws(CourierError) -> Int64 {
        do {
            guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
                throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: url.path])
            }
            let handle = try FileHandle(forWritingTo: url)
            defer { try? handle.close() }
            var written: Int64 = 0
            for try await chunk in body {
                try handle.write(contentsOf: chunk)
                written += Int64(chunk.count)
            }
            return written
        } catch let error as CourierError {
            throw error
        } catch {
            throw CourierError(.download(path: url.path, error), operationID: request.operationID, request: request)
        }
    }
}

extension Provider {
    /// Sends `builder` and returns the response with its body unread. A status outside 200–299
    /// throws ``CourierError/Kind/status`` carrying the first 64 KiB of the body.
    public func stream(_ builder: RequestBuilder) async throws(CourierError) -> StreamedResponse {
        let operationID = builder.operationID ?? "\(builder.method) \(builder.path)"
        let raw = try prepare(builder, operationID: operationID)
        let result: Result<(HTTPResponse, HTTPBody?), CourierError> = await Provider.$streamsResponses.withValue(true) {
            do throws(CourierError) {
                return .success(try await executeStreaming(raw))
            } catch {
                return .failure(error)
            }
        }
        let (head, body) = try result.get()
        let streamed = StreamedResponse(head: head, body: body ?? HTTPBody(), request: raw)
        guard head.status.kind == .successful else {
            let prefix = try? await collectResponseBody(streamed.body, limit: 64 * 1024)
            let response = Response(head: head, body: prefix ?? nil, request: raw)
            throw CourierError(.status(head.status), operationID: operationID, request: raw, response: response)
        }
        return streamed
    }

    /// Sends `builder`, writes the successful response's body to `url` as it arrives, and returns
    /// the response without a body.
    @discardableResult
    public func download(_ builder: RequestBuilder, to url: URL) async throws(CourierError) -> Response {
        let streamed = try await stream(builder)
        try await streamed.write(to: url)
        return Response(head: streamed.head, body: nil, request: streamed.request)
    }

    /// For `@API` endpoints returning ``StreamedResponse``.
    public func send(_ builder: RequestBuilder, returning type: StreamedResponse.Type) async throws(CourierError) -> StreamedResponse {
        try await stream(builder)
    }

    /// Set while a streamed request runs, so that interceptors pass the body through instead of
    /// reading it into memory.
    @TaskLocal static var streamsResponses = false
}
