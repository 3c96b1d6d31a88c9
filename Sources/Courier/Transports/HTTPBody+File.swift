public import Foundation
public import OpenAPIRuntime

extension HTTPBody {
    /// A body read from the file at `url` in chunks as it is sent, with its length known so that
    /// `Content-Length` is set. It can be iterated again (by a retry or a redirect). A file that
    /// cannot be read is an error naming it.
    public static func file(_ url: URL, chunkSize: Int = 64 * 1024) throws(CourierError) -> HTTPBody {
        let size: Int64
        do {
            let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
            guard let number = attributes[.size] as? NSNumber else { throw CocoaError(.fileReadUnknown) }
            size = number.int64Value
        } catch {
            throw CourierError(.encoding(what: "the body from file '\(url.path)'", error))
        }
        return HTTPBody(FileChunks(url: url, chunkSize: Swift.max(1, chunkSize)), length: .known(size), iterationBehavior: .multiple)
    }
}

/// A file's bytes in chunks; each iteration opens the file anew.
struct FileChunks: AsyncSequence, Sendable {
    typealias Element = ArraySlice<UInt8>
    let url: URL
    let chunkSize: Int

    struct AsyncIterator: AsyncIteratorProtocol {
        let url: URL
        let chunkSize: Int
        var handle: FileHandle?
        var done = false

        mutating func next() async throws -> ArraySlice<UInt8>? {
            guard !done else { return nil }
            if handle == nil { handle = try FileHandle(forReadingFrom: url) }
            guard let handle else { return nil }
            let chunk = try handle.read(upToCount: chunkSize) ?? Data()
            if chunk.isEmpty {
                try handle.close()
                done = true
                return nil
            }
            return ArraySlice(chunk)
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(url: url, chunkSize: chunkSize) }
}

extension RequestBuilder {
    /// For generated code (`@RequestBody` and `Body<HTTPBody>`): the body as a stream of bytes —
    /// a file (`HTTPBody.file(url)`), any `AsyncSequence` wrapped in `HTTPBody`, or bytes — sent
    /// as it is read, as `setBody(.stream(body))` sets it.
    public mutating func __setBody(_ body: HTTPBody) {
        setBodyContent(.stream(body, contentType: nil))
    }
}
