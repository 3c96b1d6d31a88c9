import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import OpenAPIRuntime

extension URLSessionHTTPTransport {
    /// Gives `urlRequest` the request body `body`.
    ///
    /// On Apple platforms the body streams: URLSession reads it from one end of a bound stream
    /// pair while an ``UploadPump`` writes the body's chunks into the other, so a file or any
    /// sequence of bytes is sent without being held in memory; a known length is sent as
    /// `Content-Length`, an unknown one chunked. On Linux FoundationNetworking cannot send a body
    /// stream of unknown length, so the body — the caller's own — is read into memory first.
    static func attach(_ body: HTTPBody, to urlRequest: inout URLRequest) async throws {
        #if !canImport(FoundationNetworking)
        if let stream = UploadPump.start(body) {
            urlRequest.httpBodyStream = stream
            if case .known(let length) = body.length {
                urlRequest.setValue(String(length), forHTTPHeaderField: "Content-Length")
            }
            return
        }
        #endif
        var data = Data()
        if case .known(let length) = body.length { data.reserveCapacity(Int(clamping: length)) }
        for try await chunk in body { data.append(contentsOf: chunk) }
        urlRequest.httpBody = data
    }
}

#if !canImport(FoundationNetworking)
/// Writes a request body into the output end of a bound stream pair, whose input end URLSession
/// reads as the request's `httpBodyStream`.
///
/// A write to the output end waits until URLSession has read enough to make room, so the body is
/// read from its source only as fast as it is sent, and at most one buffer of it is held. The
/// waiting writes run on a queue of the pump's own, never on the cooperative pool. When
/// URLSession closes its end (the task ended, or was cancelled) a write fails, and the pump stops
/// reading the body; when the body fails, the stream ends early and the request with it.
final class UploadPump: @unchecked Sendable {
    // Unchecked: `output` is used only on `queue`.
    private let output: OutputStream
    private let queue = DispatchQueue(label: "Courier.URLSessionHTTPTransport.upload")

    private init(_ output: OutputStream) {
        self.output = output
    }

    /// The input end of a stream pair that `body` is written into as it is read; `nil` when
    /// no pair could be made.
    static func start(_ body: HTTPBody, bufferSize: Int = 64 * 1024) -> InputStream? {
        var input: InputStream?
        var output: OutputStream?
        Stream.getBoundStreams(withBufferSize: bufferSize, inputStream: &input, outputStream: &output)
        guard let input, let output else { return nil }
        let pump = UploadPump(output)
        Task { await pump.run(body) }
        return input
    }

    private func run(_ body: HTTPBody) async {
        guard await perform({ $0.open(); return true }) else { return }
        do {
            for try await chunk in body {
                guard await perform({ Self.write(chunk, to: $0) }) else { break }
            }
        } catch {
            // The body failed: ending the stream early ends the request, which fails.
        }
        _ = await perform { $0.close(); return true }
    }

    /// Runs `work` with the output end on the pump's queue.
    private func perform(_ work: @escaping @Sendable (OutputStream) -> Bool) async -> Bool {
        await withCheckedContinuation { continuation in
            queue.async { continuation.resume(returning: work(self.output)) }
        }
    }

    /// Writes all of `chunk`, waiting for room; `false` when the reading end has gone.
    private static func write(_ chunk: ArraySlice<UInt8>, to output: OutputStream) -> Bool {
        chunk.withUnsafeBufferPointer { bytes in
            var offset = 0
            while offset < bytes.count {
                guard let base = bytes.baseAddress else { return true }
                let written = output.write(base + offset, maxLength: bytes.count - offset)
                guard written > 0 else { return false }
                offset += written
            }
            return true
        }
    }
}
#endif
