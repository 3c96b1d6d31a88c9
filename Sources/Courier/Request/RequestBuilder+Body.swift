import Foundation

extension RequestBuilder {
    /// Sets the body to `value`, written by `format` when given and otherwise by its type: a
    /// `String` as text (`text/plain; charset=utf-8`, never JSON), `Data` as raw bytes
    /// (`application/octet-stream`), any other value with the request's or provider's body
    /// encoder (JSON unless configured otherwise). An optional that is `nil` sends no body.
    ///
    /// For a content type or text encoding of your own, a file or a stream, set the body a
    /// ``BodyContent`` writes: `request.setBody(.text(csv, contentType: "text/csv"))`.
    public mutating func setBody<Value: Encodable & Sendable>(_ value: Value, as format: BodyFormat? = nil) {
        if let format {
            if let encoder = format.encoder { bodyEncoder = encoder }
            setBodyContent(.encodable(value))
            return
        }
        // The kind of body follows from the type, which is compared as a type: casting the value
        // would look the type's conformances up on every request (three casts, about 1,000
        // instructions for a JSON body). The types are equal, so the bit casts are exact.
        if Value.self == String.self {
            setBodyContent(.text(unsafeBitCast(value, to: String.self), contentType: "text/plain", encoding: .utf8))
        } else if Value.self == Data.self {
            setBodyContent(.data(unsafeBitCast(value, to: Data.self), contentType: "application/octet-stream"))
        } else if _isOptional(Value.self), let optional = value as? any OptionalValue {
            guard let wrapped = optional.wrappedBody else { return }
            setBody(wrapped)
        } else {
            setBodyContent(.encodable(value))
        }
    }

    /// Sets the body `provider` writes, with its `Content-Type`: `.json(value)`, `.form(value)`,
    /// `.multipart(form)`, `.text(string, contentType:encoding:)`, `.data(bytes, contentType:)`,
    /// `.file(url)`, `.stream(body)`, or your own.
    public mutating func setBody(_ provider: BodyContent) {
        provider.write(into: &self)
    }

    /// For generated code (`@RequestBody` and `Body<T>`): the body `value`, written as
    /// ``setBody(_:as:)`` writes it with no format.
    public mutating func __setBody(_ value: some Encodable & Sendable) {
        setBody(value)
    }

    /// Adds one field of the body. Fields are encoded together as one object by the body
    /// encoder; a request has either fields or a body, not both.
    public mutating func addField(_ key: String, value: some Encodable & Sendable) {
        // Room for an endpoint's fields at the first, so that they allocate once or twice, not
        // once per doubling.
        if fields.isEmpty { fields.reserveCapacity(8) }
        fields.append((key, value))
    }

    /// Sets the body to content of a given form, replacing any earlier body.
    mutating func setBodyContent(_ content: RequestBody.Content) {
        body = RequestBody(content: content)
    }
}

/// Writes a `String` body as text in one encoding.
struct TextBodyEncoder: BodyEncoder {
    let encoding: String.Encoding

    var contentType: String { "text/plain; charset=\(RequestBuilder.charsetName(encoding))" }

    func encode<T: Encodable>(_ value: T) throws -> Data {
        guard let text = value as? String else {
            throw EncodingError.invalidValue(value, .init(codingPath: [], debugDescription: "a text body must be a String, not \(T.self)"))
        }
        guard let data = text.data(using: encoding) else {
            throw EncodingError.invalidValue(text, .init(codingPath: [], debugDescription: "the text cannot be written in \(RequestBuilder.charsetName(encoding))"))
        }
        return data
    }
}
