public import Foundation
public import OpenAPIRuntime

/// Writes a request's body and its `Content-Type`: `.json(value)`, `.form(value)`,
/// `.multipart(form)`, `.text(string, contentType:encoding:)`, `.data(bytes, contentType:)`,
/// `.file(url)`, `.stream(body)`, or your own — for ``Request/body(_:)`` and
/// `RequestBuilder.setBody(_:)`.
public struct BodyContent: Sendable {
    let apply: @Sendable (inout RequestBuilder) throws -> Void

    /// A body that sets itself on the request as `apply` does. An error it throws is kept and fails
    /// the request with ``CourierError/Kind/encoding`` when it is sent.
    public init(_ apply: @escaping @Sendable (inout RequestBuilder) throws -> Void) { self.apply = apply }

    func write(into builder: inout RequestBuilder) {
        do {
            try apply(&builder)
        } catch {
            builder.problems.append(.encoding(what: "the body", error))
        }
    }

    /// `value` as JSON.
    public static func json(_ value: some Encodable & Sendable, encoder: JSONEncoder? = nil) -> BodyContent {
        BodyContent { request in
            if let encoder { request.bodyEncoder = encoder } else { request.__useJSON() }
            request.setBodyContent(.encodable(value))
        }
    }

    /// `value` as `application/x-www-form-urlencoded`.
    public static func form(_ value: some Encodable & Sendable, encoder: URLFormEncoder = URLFormEncoder()) -> BodyContent {
        BodyContent { request in request.setBody(value, as: .custom(encoder: encoder)) }
    }

    /// `multipart/form-data` parts.
    public static func multipart(_ form: MultipartForm) -> BodyContent {
        BodyContent { request in request.setParts(form) }
    }

    /// Text in `encoding`, labelled `contentType; charset=…` (`text/plain; charset=utf-8` unless
    /// you choose).
    public static func text(_ text: String, contentType: String = "text/plain", encoding: String.Encoding = .utf8) -> BodyContent {
        BodyContent { request in request.setBodyContent(.text(text, contentType: contentType, encoding: encoding)) }
    }

    /// Raw bytes, labelled `contentType` (no `Content-Type` for `nil`).
    public static func data(_ data: Data, contentType: String? = "application/octet-stream") -> BodyContent {
        BodyContent { request in request.setBodyContent(.data(data, contentType: contentType)) }
    }

    /// A file, read in chunks as it is sent.
    public static func file(_ url: URL, contentType: String? = "application/octet-stream") -> BodyContent {
        BodyContent { request in request.setBodyContent(.file(url, contentType: contentType)) }
    }

    /// Any stream of bytes; without a known length it goes out chunked.
    public static func stream(_ body: HTTPBody, contentType: String? = nil) -> BodyContent {
        BodyContent { request in request.setBodyContent(.stream(body, contentType: contentType)) }
    }
}

/// The earlier name of ``BodyContent``, kept for one release: "provider" now names only
/// ``Provider``.
@available(*, deprecated, renamed: "BodyContent")
public typealias BodyProvider = BodyContent
