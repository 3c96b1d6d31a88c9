public import Foundation

/// How an ``Endpoint``'s `@RequestBody` is written: `.json` (the default for `Encodable`
/// values), `.urlForm`, `.text(encoding:)`, `.custom(encoder)`; `CourierXML` adds `.xml`. A
/// `String` body is sent as UTF-8 text and `Data` as raw bytes unless a format says otherwise.
public struct BodyFormat: Sendable {
    /// The encoder that writes the body.
    public let encoder: any BodyEncoder

    /// A format written by `encoder`.
    public init(encoder: any BodyEncoder) { self.encoder = encoder }

    /// Text in `encoding` (UTF-16, ISO Latin 1…), labelled `text/plain; charset=…`. The body must
    /// be a `String`.
    public static func text(encoding: String.Encoding) -> BodyFormat { BodyFormat(encoder: TextBodyEncoder(encoding: encoding)) }

    /// JSON, with the provider's JSON settings unless the request sets its own.
    public static var json: BodyFormat { BodyFormat(encoder: Provider.defaultJSONEncoder()) }
    /// `application/x-www-form-urlencoded`.
    public static var urlForm: BodyFormat { BodyFormat(encoder: URLFormEncoder()) }
    /// Any encoder.
    public static func custom(_ encoder: any BodyEncoder) -> BodyFormat { BodyFormat(encoder: encoder) }
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
