import Foundation
import HTTPTypes
import OpenAPIRuntime

extension ResponseDecoder {
    /// How an event stream ends and reconnects.
    struct EventStreamOptions: Sendable {
        /// `data` that ends the stream instead of being delivered; `nil` for none.
        var terminator: String?
        /// Whether a dropped connection is reopened with `Last-Event-ID`.
        var reconnects: Bool
    }

    /// Server-Sent Events whose `data` is JSON read as `Element`, or the text itself when
    /// `Element` is `String` (`Accept: text/event-stream`). `data` equal to `terminator`, such as
    /// `[DONE]`, ends the stream instead of being delivered; a dropped connection is reopened with
    /// `Last-Event-ID`, as `EventSource` does, unless `reconnects` is `false`.
    public static func events<Element: Decodable & Sendable & SendableMetatype>(
        _ type: Element.Type,
        terminator: String? = nil,
        reconnects: Bool = true
    ) -> ResponseDecoder where Value == ServerSentEvents<Element> {
        events(EventStreamOptions(terminator: terminator, reconnects: reconnects)) { data, decoder in
            // A `String` element is the data as text; any other type is JSON.
            if let text = data as? Element { return text }
            return try decoder.decode(Element.self, from: Foundation.Data(data.utf8))
        }
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
}

extension ServerSentEvents: __DefaultResponseDecodable where Element: Decodable & SendableMetatype {
    /// Server-Sent Events of `Element`.
    public static var __defaultDecoder: ResponseDecoder<ServerSentEvents> { .events(Element.self) }
}

extension JSONLines: __DefaultResponseDecodable where Element: Decodable & SendableMetatype {
    /// JSON Lines of `Element`.
    public static var __defaultDecoder: ResponseDecoder<JSONLines> { .jsonLines(Element.self) }
}

extension JSONSequence: __DefaultResponseDecodable where Element: Decodable & SendableMetatype {
    /// JSON text sequences of `Element`.
    public static var __defaultDecoder: ResponseDecoder<JSONSequence> { .jsonSequence(Element.self) }
}
