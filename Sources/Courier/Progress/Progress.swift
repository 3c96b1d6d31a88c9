import Foundation
import OpenAPIRuntime

/// How far a body has gone: the bytes so far and, when it is known, how many there are in all.
public struct TransferProgress: Sendable, Hashable {
    /// Bytes sent or received so far.
    public var bytes: Int64
    /// All the bytes, when the length is known.
    public var total: Int64?

    /// `bytes / total`, from 0 to 1, when the total is known.
    public var fraction: Double? {
        guard let total, total > 0 else { return total == 0 ? 1 : nil }
        return min(Double(bytes) / Double(total), 1)
    }

    /// Progress of `bytes` out of `total`; only the pipeline reports progress.
    init(bytes: Int64, total: Int64?) {
        self.bytes = bytes
        self.total = total
    }
}

/// A progress handler and how often it is called: at most once per `interval`, plus the
/// first and the last report, so that a fast transfer cannot flood it.
struct ProgressHandler: Sendable {
    let interval: Duration
    let report: @Sendable (TransferProgress) -> Void
    /// Told once the call has nothing more to report, for a handler that feeds a stream.
    var end: (@Sendable () -> Void)? = nil

    /// `body` counted as it is read, reporting here; its length and iteration behaviour kept.
    func counting(_ body: HTTPBody) -> HTTPBody {
        let total: Int64? = if case .known(let length) = body.length { length } else { nil }
        return HTTPBody(CountedBody(base: body, handler: self, total: total), length: body.length, iterationBehavior: body.iterationBehavior)
    }
}

/// A body that reports how much of it was read.
private struct CountedBody: AsyncSequence, Sendable {
    typealias Element = ArraySlice<UInt8>
    let base: HTTPBody
    let handler: ProgressHandler
    let total: Int64?

    func makeAsyncIterator() -> Iterator {
        Iterator(base: base.makeAsyncIterator(), handler: handler, total: total)
    }

    struct Iterator: AsyncIteratorProtocol {
        var base: HTTPBody.AsyncIterator
        let handler: ProgressHandler
        let total: Int64?
        var bytes: Int64 = 0
        var last: ContinuousClock.Instant?
        var ended = false

        /// What is left of a chunk larger than ``piece``.
        var rest: ArraySlice<UInt8> = []
        /// Chunks are handed on in pieces of at most 64 KiB, so that a body given as one large
        /// buffer still reports as it goes (the copy-free slices cost nothing).
        static var piece: Int { 64 * 1024 }

        mutating func next() async throws -> ArraySlice<UInt8>? {
            while rest.isEmpty {
                guard let chunk = try await base.next() else {
                    if !ended {
                        ended = true
                        handler.report(TransferProgress(bytes: bytes, total: total ?? bytes))
                    }
                    return nil
                }
                rest = chunk
            }
            let chunk = rest.prefix(Self.piece)
            rest = rest.dropFirst(chunk.count)
            bytes += Int64(chunk.count)
            let now = ContinuousClock.now
            let finished = total.map { bytes >= $0 } ?? false
            if finished {
                ended = true
                handler.report(TransferProgress(bytes: bytes, total: total))
            } else if last.map({ now - $0 >= handler.interval }) ?? true {
                last = now
                handler.report(TransferProgress(bytes: bytes, total: total))
            }
            return chunk
        }
    }
}

extension Request {
    /// A copy that reports how much of the request body has been sent: as the transport reads
    /// it, at most every `interval` (100 ms unless you choose), and once when it is all read.
    ///
    /// On AsyncHTTPClient a body over 256 KiB is read as it goes out, so this is true progress;
    /// a smaller body is read at once. URLSession reads the whole body before sending it on
    /// Linux, where the report therefore jumps to the end at the start.
    ///
    /// A request sent again — a retry, or after a refreshed credential — reads its body again, and
    /// its reports start again from zero: they describe the attempt under way.
    public func uploadProgress(every interval: Duration = .milliseconds(100), _ report: @escaping @Sendable (TransferProgress) -> Void) -> Request {
        var copy = self
        copy.builder.uploadProgress = ProgressHandler(interval: interval, report: report)
        return copy
    }

    /// A copy that reports how much of the response body has arrived — for a streamed response,
    /// as its reader reads it — at most every `interval` (100 ms unless you choose), and once
    /// at the end. The total is the `Content-Length`, when the response has one.
    ///
    /// Under a retry, only the body the call returns is reported: the body of a response that is
    /// followed by another attempt is read without reports.
    ///
    /// For the reports as an async sequence, see ``downloadProgress(every:)``.
    public func downloadProgress(every interval: Duration = .milliseconds(100), _ report: @escaping @Sendable (TransferProgress) -> Void) -> Request {
        var copy = self
        copy.builder.downloadProgress = ProgressHandler(interval: interval, report: report)
        return copy
    }

    /// A copy whose upload progress arrives as an async sequence, the reports of
    /// ``uploadProgress(every:_:)``: it ends when the call ends, whether it succeeds or fails. A
    /// body sent again — a retry, a redirect that keeps it — reports from zero again. A slow
    /// reader gets the newest report.
    public func uploadProgress(every interval: Duration = .milliseconds(100)) -> (request: Request, progress: AsyncStream<TransferProgress>) {
        let feed = ProgressFeed(interval: interval, endsAtLastReport: false)
        var copy = self
        copy.builder.uploadProgress = feed.handler
        return (copy, feed.stream)
    }

    /// A copy whose download progress arrives as an async sequence, the reports of
    /// ``downloadProgress(every:_:)``: it ends after the last report of the body the call
    /// returns, or when the call ends without one (a failure, a response with no body). For a
    /// streamed response, whose body is read after the call returns, it ends with that body's
    /// last report: stop reading it when you stop reading the body. A slow reader gets the newest
    /// report.
    ///
    /// ```swift
    /// let (request, progress) = Request(.get, "/exports/7", receiving: .data).downloadProgress()
    /// async let export = provider.send(request)
    /// for await step in progress { print(step.fraction ?? 0) }
    /// let data = try await export
    /// ```
    public func downloadProgress(every interval: Duration = .milliseconds(100)) -> (request: Request, progress: AsyncStream<TransferProgress>) {
        let feed = ProgressFeed(interval: interval, endsAtLastReport: true)
        var copy = self
        copy.builder.downloadProgress = feed.handler
        return (copy, feed.stream)
    }
}

/// A progress handler that feeds an async sequence, ending it when the call ends, and for a
/// download at the body's last report too (the body of a streamed response is read after the
/// call returns). An upload is read again by a retry or a redirect, so its sequence waits for the
/// call.
private struct ProgressFeed {
    let stream: AsyncStream<TransferProgress>
    let handler: ProgressHandler

    init(interval: Duration, endsAtLastReport: Bool) {
        let (stream, continuation) = AsyncStream<TransferProgress>.makeStream(bufferingPolicy: .bufferingNewest(1))
        self.stream = stream
        handler = ProgressHandler(interval: interval, report: { progress in
            continuation.yield(progress)
            // The last report of a body: its total is what was read.
            if endsAtLastReport, progress.total == progress.bytes { continuation.finish() }
        }, end: { continuation.finish() })
    }
}

extension RequestBuilder {
    /// Ends the progress sequences once the call is over: the upload's, and the download's
    /// unless the caller still has the body to read (`streaming`), whose last report ends it.
    func endProgress(streaming: Bool) {
        uploadProgress?.end?()
        if !streaming { downloadProgress?.end?() }
    }
}
