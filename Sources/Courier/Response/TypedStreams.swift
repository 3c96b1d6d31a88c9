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

/// A stream's iterator, which reads the body once; breaking out of the loop closes the
/// connection. A failure is a ``CourierError``.
struct TypedStreamIterator<Element: Sendable>: AsyncIteratorProtocol {
    let nextValue: () async throws -> Element?

    mutating func next() async throws -> Element? { try await nextValue() }
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
/// the `terminator` given to ``ResponseDecoder/events(_:terminator:reconnects:)`` (such as `[DONE]`).
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
    var response: StreamedResponse { stream.response }

    /// The events with their `event`, `id` and `retry` fields, instead of their data alone.
    public var events: some AsyncSequence<Event, any Error> & Sendable { EventsWithFields(stream: stream) }

    /// An iterator over the events' data.
    public func makeAsyncIterator() -> some AsyncIteratorProtocol<Element, any Error> {
        let next = stream.makeNext()
        return TypedStreamIterator {
            guard let event = try await next() else { return nil }
            return event.data
        }
    }

    /// The events of a ``ServerSentEvents`` stream, fields included.
    struct EventsWithFields: AsyncSequence, Sendable {
        let stream: TypedStream<Event>

        func makeAsyncIterator() -> TypedStreamIterator<Event> {
            TypedStreamIterator(nextValue: stream.makeNext())
        }
    }

    /// One event: its type, its id and its data read as `Element`. Its `retry` field is applied by
    /// the stream itself, as the delay before it reconnects.
    public struct Event: Sendable {
        /// The `event` field: the event's type, `nil` for the default (`message`).
        public var event: String?
        /// The `id` field, when the event carried one.
        public var id: String?
        /// The `retry` field, in milliseconds, when the event carried one.
        var retry: Int64?
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
    var response: StreamedResponse { stream.response }

    /// An iterator over the values.
    public func makeAsyncIterator() -> some AsyncIteratorProtocol<Element, any Error> { TypedStreamIterator(nextValue: stream.makeNext()) }
}

/// A stream of JSON text sequences (RFC 7464, `application/json-seq`): values each preceded by
/// the record separator `0x1E`, decoded with the provider's body decoder as they arrive. Breaking
/// out of the loop closes the connection at once. A record longer than the provider's
/// ``Provider/responseBodyLimit`` fails with ``CourierError/Kind/responseTooLarge``.
public struct JSONSequence<Element: Sendable>: AsyncSequence, Sendable {
    let stream: TypedStream<Element>

    /// The response that opened the stream.
    var response: StreamedResponse { stream.response }

    /// An iterator over the values.
    public func makeAsyncIterator() -> some AsyncIteratorProtocol<Element, any Error> { TypedStreamIterator(nextValue: stream.makeNext()) }
}
