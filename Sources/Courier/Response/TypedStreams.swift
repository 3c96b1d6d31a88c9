import Foundation
import HTTPTypes
import OpenAPIRuntime

/// What a streamed response keeps of the pipeline that made it: the body decoder, and the way
/// to send its request again (through the whole pipeline) when an event stream reconnects.
struct StreamContext: Sendable {
    /// The request's body decoder (the provider's, with its key mapping).
    var bodyDecoder: any BodyDecoder
    /// Sends the same request again with `fields` added, returning its streamed response.
    var resend: @Sendable (HTTPFields) async throws(CourierError) -> StreamedResponse
    /// The provider's retry budget, which reconnections spend.
    var budget: RetryBudget?
    /// The provider's clock, on which reconnection waits are measured.
    var clock: any Clock<Duration>
    /// The most bytes one event or record may take: the provider's ``Provider/responseBodyLimit``.
    var recordLimit: Int
}

/// Values read one by one from a response body as it arrives: the shared engine of
/// ``ServerSentEvents``, ``JSONLines`` and ``JSONSequence``.
struct TypedStream<Element: Sendable>: Sendable {
    let response: StreamedResponse
    let makeNext: @Sendable () -> () async throws -> Element?
}

/// A stream whose iterator reads the body once; breaking out of the loop closes the connection.
public struct TypedStreamIterator<Element: Sendable>: AsyncIteratorProtocol {
    let nextValue: () async throws -> Element?

    /// The next value, or `nil` at the end of the stream; a failure is a ``CourierError``.
    public mutating func next() async throws -> Element? { try await nextValue() }
}

// MARK: Server-Sent Events

/// A stream of Server-Sent Events (the WHATWG `text/event-stream` format) whose `data` is read as
/// `Element`: JSON decoded with the provider's body decoder, or the text itself for `String`.
///
/// ```swift
/// @API
/// protocol Chat {
///     @POST("/v1/chat/completions")
///     func complete(body: Body<Prompt>) async throws -> ServerSentEvents<Delta>
/// }
/// for try await delta in try await chat.complete(body: prompt) { print(delta.text, terminator: "") }
/// ```
///
/// Fields are parsed by swift-openapi-runtime's event-stream decoder: `event`, `id`, `retry` and
/// multi-line `data`; comments and unknown fields are skipped, LF, CR and CRLF all end a line, and
/// an event may arrive split across any number of chunks. An event without `data` is not
/// delivered (its `id` and `retry` still count). The stream ends when the server closes it, or at
/// the decoder's ``ResponseDecoder/EventStreamOptions/terminator`` (such as `[DONE]`).
///
/// When the connection drops mid-stream, the stream reconnects as `EventSource` does: after the
/// server's last `retry:` delay (3 seconds until one is sent), the same request is sent again
/// through the pipeline with `Last-Event-ID` set to the last `id:` received, and reading goes
/// on. Each reconnection spends one retry of the provider's ``RetryBudget``. Turn it off with
/// `reconnects: false`; then, or when the budget is spent, the drop is thrown.
///
/// Breaking out of the loop (or cancelling the task) closes the connection at once. The stream
/// itself may run for ever, but no event may take more than the provider's
/// ``Provider/responseBodyLimit``: a longer one fails with ``CourierError/Kind/responseTooLarge``.
public struct ServerSentEvents<Element: Sendable>: AsyncSequence, Sendable {
    let stream: TypedStream<Event>

    /// The response that opened the stream.
    public var response: StreamedResponse { stream.response }

    /// The events with their `event`, `id` and `retry` fields, instead of their data alone.
    public var events: EventsWithFields { EventsWithFields(stream: stream) }

    /// An iterator over the events' data.
    public func makeAsyncIterator() -> TypedStreamIterator<Element> {
        let next = stream.makeNext()
        return TypedStreamIterator {
            guard let event = try await next() else { return nil }
            return event.data
        }
    }

    /// The events of a ``ServerSentEvents`` stream, fields included.
    public struct EventsWithFields: AsyncSequence, Sendable {
        let stream: TypedStream<Event>

        /// An iterator over the events.
        public func makeAsyncIterator() -> TypedStreamIterator<Event> {
            TypedStreamIterator(nextValue: stream.makeNext())
        }
    }

    /// One event: its type, its id, its reconnection delay, and its data read as `Element`.
    public struct Event: Sendable {
        /// The `event` field: the event's type, `nil` for the default (`message`).
        public var event: String?
        /// The `id` field, when the event carried one.
        public var id: String?
        /// The `retry` field, in milliseconds, when the event carried one.
        public var retry: Int64?
        /// The `data` field (its lines joined with a line feed), read as `Element`.
        public var data: Element
    }
}

// MARK: JSON Lines and JSON text sequences

/// A stream of JSON values, one per line (JSON Lines, `application/jsonl`; also known as NDJSON),
/// each decoded with the provider's body decoder as it arrives. Blank lines are skipped. Breaking
/// out of the loop closes the connection at once. A line longer than the provider's
/// ``Provider/responseBodyLimit`` fails with ``CourierError/Kind/responseTooLarge``.
public struct JSONLines<Element: Sendable>: AsyncSequence, Sendable {
    let stream: TypedStream<Element>

    /// The response that opened the stream.
    public var response: StreamedResponse { stream.response }

    /// An iterator over the values.
    public func makeAsyncIterator() -> TypedStreamIterator<Element> { TypedStreamIterator(nextValue: stream.makeNext()) }
}

/// A stream of JSON text sequences (RFC 7464, `application/json-seq`): values each preceded by
/// the record separator `0x1E`, decoded with the provider's body decoder as they arrive. Breaking
/// out of the loop closes the connection at once. A record longer than the provider's
/// ``Provider/responseBodyLimit`` fails with ``CourierError/Kind/responseTooLarge``.
public struct JSONSequence<Element: Sendable>: AsyncSequence, Sendable {
    let stream: TypedStream<Element>

    /// The response that opened the stream.
    public var response: StreamedResponse { stream.response }

    /// An iterator over the values.
    public func makeAsyncIterator() -> TypedStreamIterator<Element> { TypedStreamIterator(nextValue: stream.makeNext()) }
}

// MARK: Decoders

extension ResponseDecoder {
    /// How an event stream ends and reconnects.
    public struct EventStreamOptions: Sendable {
        /// `data` that ends the stream instead of being delivered, such as `[DONE]`; `nil` for none.
        public var terminator: String?
        /// Whether a dropped connection is reopened with `Last-Event-ID`, as `EventSource` does.
        public var reconnects: Bool

        /// Options; by default no terminator, and reconnection on.
        public init(terminator: String? = nil, reconnects: Bool = true) {
            self.terminator = terminator
            self.reconnects = reconnects
        }
    }

    /// Server-Sent Events whose `data` is JSON read as `Element`, or the text itself when
    /// `Element` is `String` (`Accept: text/event-stream`).
    public static func events<Element: Decodable & Sendable & SendableMetatype>(
        _ type: Element.Type,
        _ options: EventStreamOptions = EventStreamOptions()
    ) -> ResponseDecoder where Value == ServerSentEvents<Element> {
        events(options) { data, decoder in
            // A `String` element is the data as text; any other type is JSON.
            if let text = data as? Element { return text }
            return try decoder.decode(Element.self, from: Foundation.Data(data.utf8))
        }
    }

    /// Server-Sent Events whose `data` is kept as text (`Accept: text/event-stream`).
    public static func events(_ options: EventStreamOptions = EventStreamOptions()) -> ResponseDecoder where Value == ServerSentEvents<String> {
        events(options) { data, _ in data }
    }

    static func events<Element: Sendable>(
        _ options: EventStreamOptions,
        _ decode: @escaping @Sendable (String, any BodyDecoder) throws -> Element
    ) -> ResponseDecoder where Value == ServerSentEvents<Element> {
        ResponseDecoder(accept: "text/event-stream", read: .streamed { response in
            ServerSentEvents(stream: TypedStream(response: response) {
                var reader = EventReader(response: response, options: options, decode: decode)
                return { try await reader.next() }
            })
        }).withStreamContext()
    }

    /// JSON Lines: one JSON value per line, read as `Element` (`Accept: application/jsonl`).
    public static func jsonLines<Element: Decodable & Sendable & SendableMetatype>(_ type: Element.Type) -> ResponseDecoder where Value == JSONLines<Element> {
        ResponseDecoder(accept: "application/jsonl, application/x-ndjson", read: .streamed { response in
            JSONLines(stream: TypedStream(response: response) {
                var records = RecordReader(response: response, separator: UInt8(ascii: "\n"), leading: false)
                return { try await records.next(Element.self) }
            })
        }).withStreamContext()
    }

    /// JSON text sequences (RFC 7464), read as `Element` (`Accept: application/json-seq`).
    public static func jsonSequence<Element: Decodable & Sendable & SendableMetatype>(_ type: Element.Type) -> ResponseDecoder where Value == JSONSequence<Element> {
        ResponseDecoder(accept: "application/json-seq", read: .streamed { response in
            JSONSequence(stream: TypedStream(response: response) {
                var records = RecordReader(response: response, separator: 0x1E, leading: true)
                return { try await records.next(Element.self) }
            })
        }).withStreamContext()
    }
}

extension ResponseDecoder {
    /// This decoder, given the pipeline's body decoder and a way to send the request again.
    func withStreamContext() -> ResponseDecoder {
        var copy = self
        copy.usesStreamContext = true
        return copy
    }

    /// For generated code: the decoder of an endpoint returning ``ServerSentEvents``.
    public static func returning<Element: Decodable & Sendable & SendableMetatype>(_ type: ServerSentEvents<Element>.Type) -> ResponseDecoder
    where Value == ServerSentEvents<Element> { .events(Element.self) }

    /// For generated code: the decoder of an endpoint returning ``JSONLines``.
    public static func returning<Element: Decodable & Sendable & SendableMetatype>(_ type: JSONLines<Element>.Type) -> ResponseDecoder
    where Value == JSONLines<Element> { .jsonLines(Element.self) }

    /// For generated code: the decoder of an endpoint returning ``JSONSequence``.
    public static func returning<Element: Decodable & Sendable & SendableMetatype>(_ type: JSONSequence<Element>.Type) -> ResponseDecoder
    where Value == JSONSequence<Element> { .jsonSequence(Element.self) }
}

// MARK: Readers

/// Reads Server-Sent Events off a response, reconnecting when the connection drops.
private struct EventReader<Element: Sendable> {
    typealias Events = ServerSentEventsDeserializationSequence<ServerSentEventsLineDeserializationSequence<BoundedEvents>>
    var events: Events.AsyncIterator
    var response: StreamedResponse
    let options: ResponseDecoder<ServerSentEvents<Element>>.EventStreamOptions
    let decode: @Sendable (String, any BodyDecoder) throws -> Element
    var lastEventID: String?
    /// The wait before reconnecting: 3 seconds until the server sends `retry:`.
    var retry: Duration = .seconds(3)
    var ended = false

    init(response: StreamedResponse, options: ResponseDecoder<ServerSentEvents<Element>>.EventStreamOptions, decode: @escaping @Sendable (String, any BodyDecoder) throws -> Element) {
        self.response = response
        self.options = options
        self.decode = decode
        self.events = BoundedEvents(response).asDecodedServerSentEvents().makeAsyncIterator()
    }

    mutating func next() async throws(CourierError) -> ServerSentEvents<Element>.Event? {
        while !ended {
            let event: OpenAPIRuntime.ServerSentEvent?
            do {
                event = try await events.next()
            } catch {
                try await reconnect(after: error)
                continue
            }
            guard let event else {
                ended = true
                return nil
            }
            if let id = event.id { lastEventID = id }
            if let retry = event.retry, retry >= 0 { self.retry = .milliseconds(retry) }
            guard let data = event.data else { continue }
            if let terminator = options.terminator, data == terminator {
                ended = true
                return nil
            }
            do {
                let decoder = response.context?.bodyDecoder ?? JSONDecoder()
                return ServerSentEvents.Event(event: event.event, id: event.id, retry: event.retry, data: try decode(data, decoder))
            } catch {
                throw CourierError(.decoding(type: "\(Element.self)", bodyPrefix: String(data.prefix(200)), error), request: response.request)
            }
        }
        return nil
    }

    /// Opens the stream again after `error` dropped it, or throws it when that is not allowed.
    private mutating func reconnect(after error: any Error) async throws(CourierError) {
        let failure = PipelineErrors.classifyTransport(error).with(operationID: response.request.operationID, request: response.request)
        guard options.reconnects, failure.kind == .transport || failure.kind == .timeout, let context = response.context else {
            throw failure
        }
        if let budget = context.budget, !budget.withdraw() {
            var spent = failure
            spent.retryStoppedBecause = "the stream dropped, and the provider's retry budget is spent, so it did not reconnect"
            throw spent
        }
        do {
            try await context.clock.wait(retry)
        } catch {
            throw CourierError(.cancelled(error), operationID: response.request.operationID, request: response.request)
        }
        var fields = HTTPFields()
        if let lastEventID, let name = HTTPField.Name("Last-Event-ID") { fields[name] = lastEventID }
        response = try await context.resend(fields)
        events = BoundedEvents(response).asDecodedServerSentEvents().makeAsyncIterator()
    }
}

/// An event stream's body as the runtime's event-stream parser should see it: in chunks that end
/// at a line end, and failing with ``CourierError/Kind/responseTooLarge`` as soon as one line, or
/// one event's lines (comments aside), pass the provider's ``Provider/responseBodyLimit``.
///
/// swift-openapi-runtime's parser (1.13) keeps an unfinished line, and an event's `data` lines,
/// without any bound, and looks for a line end from the start of what it keeps each time a chunk
/// arrives. A server sending one endless line would grow the client's memory until it ran out,
/// and cost time that grows with the square of the line. Here an unfinished line waits until its
/// end arrives (each byte looked at once) and the parser is given whole lines only.
struct BoundedEvents: AsyncSequence, Sendable {
    typealias Element = ArraySlice<UInt8>
    let body: HTTPBody
    let request: RawRequest
    let limit: Int

    init(_ response: StreamedResponse) {
        body = response.body
        request = response.request
        limit = response.recordLimit
    }

    struct AsyncIterator: AsyncIteratorProtocol {
        var base: HTTPBody.AsyncIterator
        let request: RawRequest
        let limit: Int
        /// The start of a line whose end has not arrived yet.
        var unfinished: [UInt8] = []
        var ended = false
        /// Bytes of the line being read.
        var lineBytes = 0
        /// Bytes of the event being read: its lines since the last blank line, comments aside
        /// (the parser keeps nothing of a comment, so a heartbeat of comments never adds up).
        var eventBytes = 0
        /// Whether the last byte ended a line (so that another line end makes a blank line).
        var atLineStart = true
        /// Whether the last byte was a CR, so that an LF after it ends no further line.
        var afterCR = false
        /// Whether the line being read is a comment (starts with a colon).
        var inComment = false

        mutating func next() async throws -> ArraySlice<UInt8>? {
            while !ended {
                guard let chunk = try await base.next() else {
                    ended = true
                    // A last line without its end is the parser's to judge.
                    return unfinished.isEmpty ? nil : unfinished[...]
                }
                var lastEnd: Int?
                for index in chunk.indices {
                    let byte = chunk[index]
                    switch byte {
                    case 0x0A where afterCR:
                        afterCR = false
                        lastEnd = index
                    case 0x0A, 0x0D:
                        if atLineStart { eventBytes = 0 }
                        atLineStart = true
                        afterCR = byte == 0x0D
                        inComment = false
                        lineBytes = 0
                        lastEnd = index
                    default:
                        if atLineStart { inComment = byte == UInt8(ascii: ":") }
                        atLineStart = false
                        afterCR = false
                        lineBytes += 1
                        if !inComment { eventBytes += 1 }
                        guard lineBytes <= limit, eventBytes <= limit else {
                            throw CourierError(.responseTooLarge(limit: limit), operationID: request.operationID, request: request)
                        }
                    }
                }
                guard let lastEnd else {
                    unfinished.append(contentsOf: chunk)
                    continue
                }
                let lines: ArraySlice<UInt8>
                if unfinished.isEmpty {
                    lines = chunk[...lastEnd]
                } else {
                    unfinished.append(contentsOf: chunk[...lastEnd])
                    lines = unfinished[...]
                    unfinished = []
                }
                unfinished.append(contentsOf: chunk[(lastEnd + 1)...])
                return lines
            }
            return nil
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(base: body.makeAsyncIterator(), request: request, limit: limit) }
}

extension StreamedResponse {
    /// The most bytes one event or record of a typed stream may take: the provider's
    /// ``Provider/responseBodyLimit``.
    var recordLimit: Int { context?.recordLimit ?? Provider.defaultBodyLimit }
}

/// Reads records split by `separator` off a response and decodes each as JSON: JSON Lines
/// (records end with `\n`) and JSON text sequences (records start with `0x1E`).
///
/// Not swift-openapi-runtime's `JSONLinesDeserializationSequence` and
/// `JSONSequenceDeserializationSequence` (1.13): they keep a record's bytes without any bound, so
/// a server sending one endless line grows the client's memory until it runs out, and they move
/// the rest of their buffer forward after every record. This reader keeps at most one record,
/// fails with ``CourierError/Kind/responseTooLarge`` past the provider's ``Provider/responseBodyLimit``, and decodes with the
/// provider's ``BodyDecoder`` (its key mapping included) rather than a plain `JSONDecoder`.
private struct RecordReader {
    var body: HTTPBody.AsyncIterator
    let response: StreamedResponse
    let separator: UInt8
    let leading: Bool
    var buffer: [UInt8] = []
    var start = 0
    var scanned = 0
    var finished = false

    init(response: StreamedResponse, separator: UInt8, leading: Bool) {
        self.response = response
        self.body = response.body.makeAsyncIterator()
        self.separator = separator
        self.leading = leading
    }

    mutating func next<Element: Decodable>(_ type: Element.Type) async throws(CourierError) -> Element? {
        while let record = try await nextRecord() {
            // Blank records (an empty line, a separator with nothing after it) carry no value.
            let trimmed = record.drop { Self.isSpace($0) }.reversed().drop { Self.isSpace($0) }.reversed()
            guard !trimmed.isEmpty else { continue }
            let data = Data(trimmed)
            do {
                let decoder = response.context?.bodyDecoder ?? JSONDecoder()
                return try decoder.decode(Element.self, from: data)
            } catch {
                throw CourierError(.decoding(type: "\(Element.self)", bodyPrefix: String(decoding: data.prefix(200), as: UTF8.self), error), request: response.request)
            }
        }
        return nil
    }

    private static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == 0x1E }

    /// The next record's bytes, without its separator; `nil` at the end of the body.
    private mutating func nextRecord() async throws(CourierError) -> ArraySlice<UInt8>? {
        while true {
            // Bytes before `scanned` hold no separator: each byte is looked at once, however
            // many chunks a record spans.
            if let index = buffer[max(start, scanned)...].firstIndex(of: separator) {
                guard index - start <= response.recordLimit else { throw recordTooLarge() }
                let record = buffer[start..<index]
                start = index + 1
                scanned = start
                if leading && record.isEmpty { continue }
                return record
            }
            scanned = buffer.count
            // One record may not outgrow the limit, however many records a chunk holds.
            guard buffer.count - start <= response.recordLimit else { throw recordTooLarge() }
            if finished {
                guard start < buffer.count else { return nil }
                let record = buffer[start...]
                start = buffer.count
                return record
            }
            // Drop what was read before reading more, so the buffer holds one record at most.
            if start > 0 {
                buffer.removeFirst(start)
                scanned -= start
                start = 0
            }
            let chunk: ArraySlice<UInt8>?
            do {
                chunk = try await body.next()
            } catch {
                throw PipelineErrors.classifyTransport(error).with(operationID: response.request.operationID, request: response.request)
            }
            guard let chunk else {
                finished = true
                continue
            }
            buffer.append(contentsOf: chunk)
        }
    }

    private func recordTooLarge() -> CourierError {
        CourierError(.responseTooLarge(limit: response.recordLimit), operationID: response.request.operationID, request: response.request)
    }
}

/// A stream type a response can be read as, with the decoder that reads it: what an
/// ``Endpoint`` whose `Response` is one uses unless it says otherwise.
public protocol ResponseStreamDecodable: Sendable {
    /// The decoder of this stream type.
    static var streamDecoder: ResponseDecoder<Self> { get }
}

extension ServerSentEvents: ResponseStreamDecodable where Element: Decodable & SendableMetatype {
    /// Server-Sent Events of `Element`.
    public static var streamDecoder: ResponseDecoder<ServerSentEvents> { .events(Element.self) }
}

extension JSONLines: ResponseStreamDecodable where Element: Decodable & SendableMetatype {
    /// JSON Lines of `Element`.
    public static var streamDecoder: ResponseDecoder<JSONLines> { .jsonLines(Element.self) }
}

extension JSONSequence: ResponseStreamDecodable where Element: Decodable & SendableMetatype {
    /// JSON text sequences of `Element`.
    public static var streamDecoder: ResponseDecoder<JSONSequence> { .jsonSequence(Element.self) }
}
