import Courier
import Foundation
import HTTPTypes
import OpenAPIRuntime

/// An archive entry's response, as a transport returns it.
enum ArchiveReplay {
    /// The recorded response of `entry`: its status, its headers less the framing and coding that
    /// no longer describe a decoded body, and its body — at the recorded pace when `pacing` and
    /// the entry has its chunks.
    static func answer(_ entry: HTTPArchive.Entry, pacing: Bool, operationID: String) throws -> (HTTPResponse, HTTPBody?) {
        // Browsers record a request that got no response (blocked, cancelled) with status 0.
        guard entry.response.status >= 100 else {
            throw CourierError.unmocked(operationID, detail: "the entry of \(entry.request.method) \(entry.request.url) recorded no response (status \(entry.response.status))")
        }
        guard let bytes = entry.response.content.bytes else {
            throw CourierError.unmocked(operationID, detail: "the recorded body of \(entry.request.method) \(entry.request.url) is not valid base64")
        }
        var fields = HTTPFields()
        for pair in entry.response.headers {
            guard let name = HTTPField.Name(pair.name) else { continue }
            // An archive keeps the body as received after decoding: its framing and coding no
            // longer describe it.
            if [.contentLength, .contentEncoding, .transferEncoding].contains(name) { continue }
            fields.append(HTTPField(name: name, value: pair.value))
        }
        let chunks = entry.response.content.chunks ?? []
        let paced = pacing && !chunks.isEmpty && chunks.reduce(0, { $0 + $1.size }) == bytes.count
        if !paced { fields[.contentLength] = String(bytes.count) }
        let head = HTTPResponse(status: .init(code: entry.response.status), headerFields: fields)
        return (head, paced ? pacedBody(bytes, chunks) : HTTPBody(bytes))
    }

    /// `bytes` in `chunks`, each handed over when it arrived after the head.
    private static func pacedBody(_ bytes: Data, _ chunks: [HTTPArchive.Chunk]) -> HTTPBody {
        let (stream, continuation) = AsyncThrowingStream<ArraySlice<UInt8>, any Error>.makeStream()
        let start = ContinuousClock.now
        let pump = Task {
            var offset = bytes.startIndex
            for chunk in chunks {
                try? await Task.sleep(until: start + .milliseconds(max(0, chunk.time)))
                if Task.isCancelled { break }
                continuation.yield(ArraySlice(bytes[offset..<offset + chunk.size]))
                offset += chunk.size
            }
            continuation.finish()
        }
        continuation.onTermination = { _ in pump.cancel() }
        return HTTPBody(stream, length: .unknown)
    }
}
