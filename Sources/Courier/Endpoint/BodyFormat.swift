public import Foundation

/// How an ``Endpoint``'s `@RequestBody` is written: `.json` (the default for `Encodable`
/// values), `.urlForm`, `.custom(encoder)`; `CourierXML` adds `.xml`. A `String` body is sent as
/// text and `Data` as raw bytes unless a format says otherwise.
public struct BodyFormat: Sendable {
    /// The encoder that writes the body.
    public let encoder: any RequestBodyEncoder

    public init(encoder: any RequestBodyEncoder) { self.encoder = encoder }

    /// JSON, with the provider's JSON settings unless the request sets its own.
    public static var json: BodyFormat { BodyFormat(encoder: Provider.defaultJSONEncoder()) }
    /// `application/x-www-form-urlencoded`.
    public static var urlForm: BodyFormat { BodyFormat(encoder: URLFormEncoder()) }
    /// Any encoder.
    public static func custom(_ encoder: any RequestBodyEncoder) -> BodyFormat { BodyFormat(encoder: encoder) }
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
