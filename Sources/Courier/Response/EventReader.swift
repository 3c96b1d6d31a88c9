import Foundation
import HTTPTypes
import OpenAPIRuntime

/// Reads Server-Sent Events off a response, reconnecting when the connection drops.
struct EventReader<Element: Sendable> {
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
