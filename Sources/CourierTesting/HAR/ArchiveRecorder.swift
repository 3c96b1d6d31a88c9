import Courier
import Foundation
import HTTPTypes
import OpenAPIRuntime

/// Records one exchange with an upstream transport as an archive entry: the request as sent, the
/// response's head when it arrives, and its body as the caller reads it, chunk by chunk. The entry
/// is written when the body ends, fails, or is dropped unread — then with what was read.
final class ArchiveRecorder: Sendable {
    private let store: ArchiveStore
    private let slot: Int
    private let startedAt = Date()
    private let started = ContinuousClock.now
    private let state = Locked(State())

    private struct State {
        var request: HTTPArchive.Request?
        var requestBody: Data?
        var head: HTTPResponse?
        var headAt: ContinuousClock.Instant?
        var body = Data()
        /// Kept for streamed media types only: their pace is part of what a test replays.
        var chunks: [HTTPArchive.Chunk]?
        var finished = false
    }

    /// The media types whose bodies are replayed at their recorded pace.
    static let streamedTypes: Set<String> = [
        "text/event-stream", "application/jsonl", "application/x-ndjson", "application/json-seq", "application/jsonlines",
    ]

    init(store: ArchiveStore) {
        self.store = store
        slot = store.reserve()
    }

    deinit {
        // A body dropped before its end: the entry keeps what was read.
        try? finish()
    }

    /// Sends `request` through `upstream`, recording it, and returns the response with its body
    /// passing through the recording.
    static func send(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        through upstream: any ClientTransport, into store: ArchiveStore
    ) async throws -> (HTTPResponse, HTTPBody?) {
        let recorder = ArchiveRecorder(store: store)
        var sent = body
        if let body {
            if body.iterationBehavior == .multiple {
                recorder.state.withLock { $0.requestBody = Data() }
                for try await chunk in body { recorder.state.withLock { $0.requestBody?.append(contentsOf: chunk) } }
            } else {
                // Read once, by the transport: the recording keeps what it reads.
                recorder.state.withLock { $0.requestBody = Data() }
                sent = HTTPBody(Tee(base: body) { chunk in recorder.state.withLock { $0.requestBody?.append(contentsOf: chunk) } }, length: body.length, iterationBehavior: .single)
            }
        }
        recorder.state.withLock { $0.request = Self.describe(request, baseURL: baseURL, redaction: store.redaction) }
        let head: HTTPResponse
        let answer: HTTPBody?
        do {
            (head, answer) = try await upstream.send(request, body: sent, baseURL: baseURL, operationID: operationID)
        } catch {
            // No response, nothing an archive can hold: the attempt is not recorded.
            recorder.state.withLock { $0.finished = true }
            store.abandon(recorder.slot)
            throw error
        }
        let streamed = head.headerFields[.contentType].map { Self.streamedTypes.contains(Self.mediaType($0)) } ?? false
        recorder.state.withLock {
            $0.head = head
            $0.headAt = .now
            $0.chunks = streamed ? [] : nil
        }
        guard let answer else {
            try recorder.finish()
            return (head, nil)
        }
        let tee = Tee(base: answer, onChunk: recorder.received, onEnd: { try recorder.finish() })
        return (head, HTTPBody(tee, length: answer.length, iterationBehavior: .single))
    }

    private func received(_ chunk: ArraySlice<UInt8>) {
        state.withLock { state in
            state.body.append(contentsOf: chunk)
            if state.chunks != nil, let headAt = state.headAt {
                state.chunks?.append(HTTPArchive.Chunk(size: chunk.count, time: Self.milliseconds(.now - headAt)))
            }
        }
    }

    /// Writes the entry, once.
    private func finish() throws(HTTPArchiveError) {
        let finished = ContinuousClock.now
        let entry: HTTPArchive.Entry? = state.withLock { state in
            guard !state.finished, var request = state.request, let head = state.head, let headAt = state.headAt else { return nil }
            state.finished = true
            if let body = state.requestBody {
                request.postData = HTTPArchive.PostData(body, mimeType: Self.contentType(of: request))
                request.bodySize = body.count
            }
            let mimeType = head.headerFields[.contentType] ?? ""
            let location = head.headerFields[.location] ?? ""
            let response = HTTPArchive.Response(
                status: head.status.code, statusText: Self.reason(head.status), httpVersion: "HTTP/1.1", cookies: [],
                headers: store.redaction.pairs(head.headerFields),
                content: HTTPArchive.Content(state.body, mimeType: mimeType, chunks: state.chunks),
                redirectURL: location, headersSize: -1, bodySize: state.body.count)
            let wait = Self.milliseconds(headAt - started)
            let receive = Self.milliseconds(finished - headAt)
            return HTTPArchive.Entry(
                startedDateTime: Self.timestamp(startedAt), time: wait + receive, request: request, response: response,
                timings: HTTPArchive.Timings(send: 0, wait: wait, receive: receive))
        }
        if let entry { try store.complete(slot, with: entry) }
    }

    /// The request as an archive records it, secrets redacted; its body is added at the end.
    static func describe(_ request: HTTPRequest, baseURL: URL, redaction: Redaction) -> HTTPArchive.Request {
        var url = absoluteURL(of: request, baseURL: baseURL)
        var components = URLComponents(string: url)
        if let query = components?.percentEncodedQuery {
            components?.percentEncodedQuery = redaction.query(query)
            url = components?.string ?? url
        }
        return HTTPArchive.Request(
            method: request.method.rawValue, url: url, httpVersion: "HTTP/1.1", cookies: [],
            headers: redaction.pairs(request.headerFields), queryString: redaction.queryString(components),
            postData: nil, headersSize: -1, bodySize: 0)
    }

    /// The status's reason phrase as received, or its standard one when none came (URLSession
    /// passes none on).
    static func reason(_ status: HTTPResponse.Status) -> String {
        status.reasonPhrase.isEmpty ? HTTPResponse.Status(code: status.code).reasonPhrase : status.reasonPhrase
    }

    /// The request's absolute URL as text: the base URL, then the path and query as sent.
    static func absoluteURL(of request: HTTPRequest, baseURL: URL) -> String {
        let base = baseURL.absoluteString.hasSuffix("/") ? String(baseURL.absoluteString.dropLast()) : baseURL.absoluteString
        return base + (request.path ?? "/")
    }

    /// The media type of `request`'s body, as its headers name it.
    static func contentType(of request: HTTPArchive.Request) -> String {
        request.headers.first { $0.name.lowercased() == "content-type" }?.value ?? "application/octet-stream"
    }

    static func mediaType(_ contentType: String) -> String {
        (contentType.split(separator: ";").first.map(String.init) ?? contentType).trimmingCharacters(in: .whitespaces).lowercased()
    }

    static func milliseconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
    }

    /// `date` in ISO 8601 with milliseconds, in UTC.
    static func timestamp(_ date: Date) -> String {
        Date.ISO8601FormatStyle(includingFractionalSeconds: true).format(date)
    }
}


/// A body's chunks passed on unchanged, each shown to `onChunk`; `onEnd` runs when the body ends
/// and may fail it.
struct Tee: AsyncSequence, Sendable {
    typealias Element = ArraySlice<UInt8>
    let base: HTTPBody
    let onChunk: @Sendable (ArraySlice<UInt8>) -> Void
    let onEnd: @Sendable () throws -> Void

    init(base: HTTPBody, onChunk: @escaping @Sendable (ArraySlice<UInt8>) -> Void, onEnd: @escaping @Sendable () throws -> Void = {}) {
        self.base = base
        self.onChunk = onChunk
        self.onEnd = onEnd
    }

    func makeAsyncIterator() -> Iterator { Iterator(base: base.makeAsyncIterator(), onChunk: onChunk, onEnd: onEnd) }

    struct Iterator: AsyncIteratorProtocol {
        var base: HTTPBody.AsyncIterator
        let onChunk: @Sendable (ArraySlice<UInt8>) -> Void
        let onEnd: @Sendable () throws -> Void

        mutating func next() async throws -> ArraySlice<UInt8>? {
            guard let chunk = try await base.next() else {
                try onEnd()
                return nil
            }
            onChunk(chunk)
            return chunk
        }
    }
}
