public import Foundation

/// Turns a response into a request's value, and names the `Accept` header it asks for.
///
/// It is the one way Courier reads responses, whichever front-end made the request: `@API`
/// picks one from an endpoint's return type, an ``Endpoint`` from its `Response`, and the fluent
/// builder from ``Request/receiving(_:)``. The catalogue:
///
/// | decoder | value | empty body | status outside 200–299 |
/// |---|---|---|---|
/// | ``json(_:decoder:)`` | any `Decodable`, with the provider's key mapping and coders | `nil` for an optional, otherwise an error | ``CourierError/Kind/status`` |
/// | ``text`` | `String` in the response's charset | `""` | ``CourierError/Kind/status`` |
/// | ``data`` | `Data` | empty for a `204`, a `205` or a `HEAD`; otherwise an error (an optional `Data?` from `@API` or an ``Endpoint`` is `nil`) | ``CourierError/Kind/status`` |
/// | ``none`` | nothing | fine | ``CourierError/Kind/status`` |
/// | ``response`` | the ``Response`` itself | fine | returned, not thrown |
/// | ``stream`` | a ``StreamedResponse``, body unread | fine | ``CourierError/Kind/status`` with the first 64 KiB |
/// | ``typed(_:)`` | an ``EndpointResponse(format:)`` type, which reads status, headers and bodies | its own rules | its own rules |
///
/// Declare your own as static members, or build one with ``custom(accept:_:)``:
///
/// ```swift
/// extension ResponseDecoder where Value == [String] {
///     static var lines: ResponseDecoder<[String]> {
///         .custom(accept: "text/plain") { _, _, body in
///             String(decoding: body ?? Data(), as: UTF8.self).split(separator: "\n").map(String.init)
///         }
///     }
/// }
/// ```
public struct ResponseDecoder<Value>: Sendable {
    /// The `Accept` header sent with the request unless it sets its own; `nil` sends none.
    /// ``accepting(_:)`` changes it.
    var accept: String?
    @usableFromInline let read: Read
    /// Whether the streamed reader needs the pipeline's ``StreamContext`` (typed streams do; a
    /// plain stream does not, so it is not made for one).
    var usesStreamContext = false

    @usableFromInline enum Read: Sendable {
        /// Reads a response whose body is in memory, with the provider's (or request's) body
        /// decoder.
        case buffered(@Sendable (Response, any BodyDecoder) throws(CourierError) -> Value)
        /// Wraps a response whose body is still arriving; only ``stream`` makes one.
        case streamed(@Sendable (StreamedResponse) -> Value)
    }

    @usableFromInline
    init(accept: String?, _ decode: @escaping @Sendable (Response, any BodyDecoder) throws(CourierError) -> Value) {
        self.accept = accept
        self.read = .buffered(decode)
    }

    /// Whether the body is handed over unread. Inlined: a call would look up this type's metadata
    /// for its generic caller on every request.
    @inline(__always) var streams: Bool {
        if case .streamed = read { return true }
        return false
    }

    /// A copy that asks for `contentType` (or nothing, for `nil`) in the `Accept` header.
    public func accepting(_ contentType: String?) -> ResponseDecoder {
        var copy = self
        copy.accept = contentType
        return copy
    }

    /// A decoder from a closure over status, headers and body. It runs for 2xx statuses only (the
    /// others fail with ``CourierError/Kind/status``); an error it throws becomes a
    /// ``CourierError/Kind/decoding`` error that keeps it.
    public static func custom(
        accept: String? = nil,
        _ decode: @escaping @Sendable (HTTPResponse.Status, HTTPFields, Data?) throws -> Value
    ) -> ResponseDecoder {
        ResponseDecoder(accept: accept) { response, _ throws(CourierError) in
            try response.__validate()
            do {
                return try decode(response.status, response.headers, response.body)
            } catch let error as CourierError {
                throw error
            } catch {
                throw CourierError(.decoding(type: "\(Value.self)", bodyPrefix: ResponseDecoding.prefix(of: response.body ?? Data()), error), response: response)
            }
        }
    }
}

extension ResponseDecoder where Value: Decodable & SendableMetatype {
    /// The body decoded as `type`: with `decoder` when given, otherwise with the request's or
    /// provider's decoder and key mapping. An empty body is `nil` when `Value` is optional, an
    /// error otherwise. Asks for `application/json`.
    @inlinable
    public static func json(_ type: Value.Type, decoder: (any BodyDecoder)? = nil) -> ResponseDecoder {
        guard let decoder else {
            // Captures nothing, and is specialized where it is called (inlinable), so that the
            // common case allocates no closure context per request: not even for `Value`'s type.
            return ResponseDecoder(accept: "application/json") { response, contextual throws(CourierError) in
                try response.decode(Value.self, using: contextual)
            }
        }
        return ResponseDecoder(accept: "application/json") { response, _ throws(CourierError) in
            try response.decode(Value.self, using: decoder)
        }
    }
}

extension ResponseDecoder where Value == String {
    /// The body as text in the charset the response names (UTF-8 when it names none); an empty
    /// body is `""`.
    public static var text: ResponseDecoder<String> {
        ResponseDecoder(accept: nil) { response, _ throws(CourierError) in
            try response.__validate()
            guard let body = response.body else { return "" }
            return try ResponseDecoding.text(from: body, response: response)
        }
    }

    /// The body as text in `encoding`, whatever the response says.
    public static func text(encoding: String.Encoding) -> ResponseDecoder<String> {
        .custom { _, _, body in
            guard let text = String(data: body ?? Data(), encoding: encoding) else {
                throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "the body is not valid in \(encoding)"))
            }
            return text
        }
    }
}

extension ResponseDecoder where Value == Data {
    /// The body's bytes. A response that has no body by definition — a `204`, a `205`, the
    /// answer to a `HEAD` — gives empty bytes; any other empty body is an error, as for any value
    /// that needs a body.
    public static var data: ResponseDecoder<Data> {
        ResponseDecoder(accept: nil) { response, _ throws(CourierError) in
            try response.__validate()
            guard let body = response.body else {
                if response.hasNoBodyByDefinition { return Data() }
                throw CourierError(.emptyBody(expected: "Data"), response: response)
            }
            return body
        }
    }
}

extension ResponseDecoder where Value == Void {
    /// Nothing: only the status is checked.
    public static var none: ResponseDecoder<Void> {
        ResponseDecoder(accept: nil) { response, _ throws(CourierError) in try response.__validate() }
    }
}

extension ResponseDecoder where Value == Response {
    /// The response as it is, whatever its status; read ``Response/error`` to learn whether it
    /// failed.
    public static var response: ResponseDecoder<Response> {
        ResponseDecoder(accept: nil) { response, _ in response }
    }
}

extension ResponseDecoder where Value == StreamedResponse {
    /// The response with its body unread, to consume chunk by chunk or write to a file. It
    /// passes the same modifiers, middleware, validation and timeout as any request; a status
    /// outside 200–299 fails with ``CourierError/Kind/status`` carrying the body's first 64 KiB.
    public static var stream: ResponseDecoder<StreamedResponse> {
        ResponseDecoder(accept: nil, read: .streamed { $0 })
    }
}

extension ResponseDecoder where Value: ResponseDecodable & SendableMetatype {
    /// A type that reads itself from the whole response — status, headers, cookies, bodies —
    /// such as one written with ``EndpointResponse(format:)``.
    public static func typed(_ type: Value.Type) -> ResponseDecoder {
        ResponseDecoder(accept: Value.acceptedContentType) { response, decoder throws(CourierError) in
            try Value(from: response, decoder: decoder)
        }
    }
}

extension ResponseDecoder where Value: LosslessStringConvertible & SendableMetatype {
    /// The body's text, trimmed, read as `type`: `Int`, `Double`, `Bool`…
    public static func value(_ type: Value.Type) -> ResponseDecoder {
        ResponseDecoder(accept: "text/plain") { response, _ throws(CourierError) in
            try response.__validate()
            let text = try ResponseDecoding.text(from: response.body ?? Data(), response: response)
                .trimmingCharacters(in: .whitespacesAndNewlines)
            guard let value = Value(text) else {
                let error = DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "'\(text)' is not a \(Value.self)"))
                throw CourierError(.decoding(type: "\(Value.self)", bodyPrefix: String(text.prefix(200)), error), response: response)
            }
            return value
        }
    }
}

extension ResponseDecoder {
    /// The value `decoder` reads, together with the response it was read from.
    public static func withResponse<T>(_ decoder: ResponseDecoder<T>) -> ResponseDecoder where Value == (T, Response) {
        switch decoder.read {
        case .buffered(let decode):
            return ResponseDecoder(accept: decoder.accept) { response, bodyDecoder throws(CourierError) in
                (try decode(response, bodyDecoder), response)
            }
        case .streamed(let wrap):
            var paired = ResponseDecoder(accept: decoder.accept, read: .streamed { streamed in
                (wrap(streamed), Response(head: streamed.head, body: nil, request: streamed.request))
            })
            paired.usesStreamContext = decoder.usesStreamContext
            return paired
        }
    }

    init(accept: String?, read: Read) {
        self.accept = accept
        self.read = read
    }
}
