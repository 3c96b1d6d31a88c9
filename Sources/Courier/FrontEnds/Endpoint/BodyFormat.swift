public import Foundation

/// The format of a body: how an ``Endpoint``'s `@RequestBody` is written, and how an
/// ``EndpointResponse(format:)`` type reads its bodies and which `Accept` header it asks for.
///
/// `.json` (the default for `Encodable` values), `.urlForm`, `.text(encoding:)` and
/// `.custom(encoder:)` write request bodies; `.json`, `.urlForm` and `.custom(decoder:accept:)`
/// read response bodies; `CourierXML` adds `.xml`, which does both. A `String` body is sent as
/// UTF-8 text and `Data` as raw bytes unless a format says otherwise.
public struct BodyFormat: Sendable {
    /// The encoder that writes request bodies; `nil` keeps the request's or provider's.
    let encoder: (any BodyEncoder)?
    /// The decoder that reads response bodies; `nil` keeps the request's or provider's.
    let decoder: (any BodyDecoder)?
    /// The `Accept` header that asks for this format; `nil` adds none.
    let accept: String?

    /// A format of the package's own, such as `CourierXML`'s.
    package init(encoder: (any BodyEncoder)?, decoder: (any BodyDecoder)? = nil, accept: String? = nil) {
        self.encoder = encoder
        self.decoder = decoder
        self.accept = accept
    }

    /// Text in `encoding` (UTF-16, ISO Latin 1…), labelled `text/plain; charset=…`. The body must
    /// be a `String`.
    public static func text(encoding: String.Encoding) -> BodyFormat { BodyFormat(encoder: TextBodyEncoder(encoding: encoding)) }

    /// JSON, with the provider's JSON settings unless the request sets its own; responses are
    /// read with a `JSONDecoder` and asked for with `Accept: application/json`.
    public static var json: BodyFormat {
        BodyFormat(encoder: Provider.defaultJSONEncoder(), decoder: JSONDecoder(), accept: "application/json")
    }

    /// `application/x-www-form-urlencoded`, written with ``URLFormEncoder`` and read with
    /// ``URLFormDecoder``.
    public static var urlForm: BodyFormat {
        BodyFormat(encoder: URLFormEncoder(), decoder: URLFormDecoder(), accept: "application/x-www-form-urlencoded")
    }

    /// Your own format, or a configured one: request bodies written by `encoder`, with its
    /// `Content-Type`; response bodies of an ``EndpointResponse(format:)`` type read by `decoder`
    /// and asked for with `accept` (no `Accept` header for `nil`). A coder left `nil` keeps the
    /// request's or provider's. For instance
    /// `.custom(encoder: URLFormEncoder(arrayEncoding: .indexed))` for a request body, or
    /// `.custom(decoder: MyCSVDecoder(), accept: "text/csv")` for a response type.
    public static func custom(
        encoder: (any BodyEncoder)? = nil,
        decoder: (any BodyDecoder)? = nil,
        accept: String? = nil
    ) -> BodyFormat {
        BodyFormat(encoder: encoder, decoder: decoder, accept: accept)
    }

    /// For generated code (`@EndpointResponse(format:)`): the decoder of this format's bodies,
    /// `fallback` when it names none.
    public func __decoder(or fallback: any BodyDecoder) -> any BodyDecoder { decoder ?? fallback }

    /// For generated code (`@EndpointResponse(format:)`): the `Accept` header this format asks
    /// for.
    public var __accept: String? { accept }
}
