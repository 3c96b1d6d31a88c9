public import Foundation

extension RequestBuilder {
    /// Sets the body to `value`, encoded with the request's or provider's body encoder (JSON
    /// unless configured otherwise).
    public mutating func setBody(_ value: some Encodable & Sendable) {
        body = RequestBody(content: .encodable(value))
    }

    /// Sets the body to raw bytes, with `contentType` when given.
    public mutating func setBody(data: Data, contentType: String? = nil) {
        body = RequestBody(content: .data(data, contentType: contentType))
    }

    /// Sets the body to text, labelled `contentType; charset=…` (plain UTF-8 text by default).
    public mutating func setBody(
        text: String,
        contentType: String = "text/plain",
        encoding: String.Encoding = .utf8
    ) {
        body = RequestBody(content: .text(text, contentType: contentType, encoding: encoding))
    }

    /// Adds one field of the body. Fields are encoded together as one object by the body
    /// encoder; a request has either fields or a body, not both.
    public mutating func addField(_ key: String, value: some Encodable & Sendable) {
        // Room for an endpoint's fields at the first, so that they allocate once or twice, not
        // once per doubling.
        if fields.isEmpty { fields.reserveCapacity(8) }
        fields.append((key, value))
    }
}

extension RequestBuilder {
    /// Sets the body to `value` written in `format`.
    public mutating func setBody(_ value: some Encodable & Sendable, as format: BodyFormat) {
        bodyEncoder = format.encoder
        setBody(value)
    }

    /// Sets the body to text, labelled `text/plain; charset=utf-8` — never JSON.
    public mutating func setBody(_ text: String) {
        setBody(text: text)
    }

    /// Sets the body to raw bytes, labelled `application/octet-stream`.
    public mutating func setBody(_ data: Data) {
        setBody(data: data, contentType: "application/octet-stream")
    }

    /// Sets the body to `text` in `format` (JSON would write it as a JSON string).
    public mutating func setBody(_ text: String, as format: BodyFormat) {
        bodyEncoder = format.encoder
        body = RequestBody(content: .encodable(text))
    }

    /// Sets the body from an optional; `nil` sends no body.
    public mutating func setBody<T: Encodable & Sendable>(_ value: T?) {
        guard let value else { return }
        setBody(value)
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

    func with(keyMapping: KeyMapping) -> any BodyEncoder { self }
}
