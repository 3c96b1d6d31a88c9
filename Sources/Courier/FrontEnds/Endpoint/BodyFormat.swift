public import Foundation

/// How an ``Endpoint``'s `@RequestBody` is written: `.json` (the default for `Encodable`
/// values), `.urlForm`, `.text(encoding:)`, `.custom(encoder)`; `CourierXML` adds `.xml`. A
/// `String` body is sent as UTF-8 text and `Data` as raw bytes unless a format says otherwise.
public struct BodyFormat: Sendable {
    /// The encoder that writes the body.
    let encoder: any BodyEncoder

    init(encoder: any BodyEncoder) { self.encoder = encoder }

    /// Text in `encoding` (UTF-16, ISO Latin 1…), labelled `text/plain; charset=…`. The body must
    /// be a `String`.
    public static func text(encoding: String.Encoding) -> BodyFormat { BodyFormat(encoder: TextBodyEncoder(encoding: encoding)) }

    /// JSON, with the provider's JSON settings unless the request sets its own.
    public static var json: BodyFormat { BodyFormat(encoder: Provider.defaultJSONEncoder()) }
    /// `application/x-www-form-urlencoded`.
    public static var urlForm: BodyFormat { BodyFormat(encoder: URLFormEncoder()) }
    /// The body written by `encoder`, with its `Content-Type`: your own format, or a configured
    /// one such as `.custom(URLFormEncoder(dateEncoding: .secondsSince1970))`.
    public static func custom(_ encoder: any BodyEncoder) -> BodyFormat { BodyFormat(encoder: encoder) }
}
