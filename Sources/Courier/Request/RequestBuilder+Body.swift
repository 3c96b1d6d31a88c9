import Foundation

extension RequestBuilder {
    /// Sets the body to `value`, written by `format` when given and otherwise by its type: a
    /// `String` as text (`text/plain; charset=utf-8`, never JSON), `Data` as raw bytes
    /// (`application/octet-stream`), any other value with the request's or provider's body
    /// encoder (JSON unless configured otherwise). An optional that is `nil` sends no body.
    ///
    /// For a content type or text encoding of your own, a file or a stream, set the body a
    /// ``BodyProvider`` writes: `request.setBody(.text(csv, contentType: "text/csv"))`.
    public mutating func setBody(_ value: some Encodable & Sendable, as format: BodyFormat? = nil) {
        if let format {
            if let encoder = format.encoder { bodyEncoder = encoder }
            setBodyContent(.encodable(value))
            return
        }
        switch value {
        case let text as String:
            setBodyContent(.text(text, contentType: "text/plain", encoding: .utf8))
        case let data as Data:
            setBodyContent(.data(data, contentType: "application/octet-stream"))
        case let optional as any OptionalValue:
            guard let wrapped = optional.wrappedBody else { return }
            setBody(wrapped)
        default:
            setBodyContent(.encodable(value))
        }
    }

    /// Sets the body `provider` writes, with its `Content-Type`: `.json(value)`, `.form(value)`,
    /// `.multipart(form)`, `.text(string, contentType:encoding:)`, `.data(bytes, contentType:)`,
    /// `.file(url)`, `.stream(body)`, or your own.
    public mutating func setBody(_ provider: BodyProvider) {
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
