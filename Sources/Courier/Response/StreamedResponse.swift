public import Foundation
public import HTTPTypes
public import OpenAPIRuntime

/// A response whose body is read as it arrives: an `AsyncSequence` of byte chunks, never held
/// whole in memory by Courier.
///
/// ```swift
/// let export = try await provider.send(Request(.get, "/exports/latest", receiving: .stream))
/// for try await chunk in export.body { hash.update(chunk) }
/// ```
///
/// Both of Courier's transports deliver the body as it arrives; a transport of your own that
/// buffers hands it over whole.
public struct StreamedResponse: Sendable {
    /// Status and headers, read through ``status`` and ``headers``.
    var head: HTTPResponse
    /// The body, chunk by chunk. It can be read once.
    public var body: HTTPBody
    /// The request that produced this response.
    var request: RawRequest
    /// The pipeline's body decoder and the way to send the request again, for typed streams.
    var context: StreamContext?

    init(head: HTTPResponse, body: HTTPBody, request: RawRequest) {
        self.head = head
        self.body = body
        self.request = request
    }

    /// The status.
    public var status: HTTPResponse.Status {
        get { head.status }
        set { head.status = newValue }
    }
    /// The headers.
    public var headers: HTTPFields {
        get { head.headerFields }
        set { head.headerFields = newValue }
    }

    /// Reads the whole body, failing past `limit` bytes.
    public func collect(upTo limit: Int) async throws(CourierError) -> Data {
        try await collectResponseBody(body, limit: limit, status: head.status) ?? Data()
    }

    /// Writes the body to `url` chunk by chunk, replacing any file there, and returns the number
    /// of bytes written; past `limit` bytes it stops, closes the connection and fails with
    /// ``CourierError/Kind/responseTooLarge``, leaving what was written.
    @discardableResult
    func write(to url: URL, limit: Int64 = .max) async throws(CourierError) -> Int64 {
        do {
            guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
                throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: url.path])
            }
            let handle = try FileHandle(forWritingTo: url)
            defer { try? handle.close() }
            var written: Int64 = 0
            for try await chunk in body {
                guard written + Int64(chunk.count) <= limit else {
                    throw CourierError(.responseTooLarge(limit: Int(clamping: limit)), operationID: request.operationID, request: request)
                }
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
