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
