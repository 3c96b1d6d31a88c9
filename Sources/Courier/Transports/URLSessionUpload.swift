import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import OpenAPIRuntime

extension URLSessionHTTPTransport {
    /// Gives `urlRequest` the request body `body` for `exchange`.
    ///
    /// On Apple platforms the body streams: URLSession reads it from one end of a bound stream
    /// pair while an ``UploadPump`` writes the body's chunks into the other, so a file or any
    /// sequence of bytes is sent without being held in memory; a known length is sent as
    /// `Content-Length`, an unknown one chunked. On Linux FoundationNetworking cannot send a body
    /// stream of unknown length, so the body — the caller's own — is read into memory first.
    static func attach(_ body: HTTPBody, to urlRequest: inout URLRequest, for exchange: Exchange) async throws {
        #if !canImport(FoundationNetworking)
        if UploadPump.attach(body, to: &urlRequest, for: exchange) { return }
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
/// read from its source only as fast as it is sent, and at most one buffer of it (and the chunk
/// being written) is held. The waiting writes block a thread of the pump's own queue, never one
/// of the cooperative pool.
///
/// The pump stops when its exchange's task ends, or when the exchange is cancelled before its
/// task is made: it stops reading the body and closes the input end (opening it first, since a
/// close of an end never opened does not reach its pair), so that a write waiting for room fails.
/// A body that fails fails the exchange with its error; the stream is not ended, so a shorter
/// body is never sent as if it were complete.
final class UploadPump: @unchecked Sendable {
    // Unchecked: `output` is used only on `queue`; `input` only once the task has ended.
    private let input: InputStream
    private let output: OutputStream
    private let queue = DispatchQueue(label: "Courier.URLSessionHTTPTransport.upload")
    private let reader = Locked<Task<Void, Never>?>(nil)

    private init(input: InputStream, output: OutputStream) {
        self.input = input
        self.output = output
    }

    /// Streams `body` into `urlRequest` for `exchange`; `false` when no stream pair could be made.
    static func attach(_ body: HTTPBody, to urlRequest: inout URLRequest, for exchange: Exchange, bufferSize: Int = 64 * 1024) -> Bool {
        var input: InputStream?
        var output: OutputStream?
        Stream.getBoundStreams(withBufferSize: bufferSize, inputStream: &input, outputStream: &output)
        guard let input, let output else { return false }
        urlRequest.httpBodyStream = input
        if case .known(let length) = body.length {
            urlRequest.setValue(String(length), forHTTPHeaderField: "Content-Length")
        }
        let pump = UploadPump(input: input, output: output)
        let owner = WeakExchange(exchange)
        pump.reader.withLock { $0 = Task { await pump.run(body, for: owner) } }
        exchange.whenTaskEnds { pump.finish() }
        return true
    }

    private func run(_ body: HTTPBody, for owner: WeakExchange) async {
        guard await perform({ $0.open(); return true }) else { return }
        do {
            for try await chunk in body {
                guard await perform({ Self.write(chunk, to: $0) }) else { return }
            }
        } catch {
            owner.exchange?.failUpload(error)
            return
        }
        _ = await perform { $0.close(); return true }
    }

    /// The task has ended or will never start: stops reading the body and unblocks a waiting write.
    private func finish() {
        reader.withLock { $0?.cancel() }
        input.open()
        input.close()
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
