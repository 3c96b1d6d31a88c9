public import Foundation
public import OpenAPIRuntime

/// Writes a request's body and its `Content-Type`: `.json(value)`, `.form(value)`,
/// `.multipart(form)`, `.text(string, encoding:)`, `.data(bytes, contentType:)`, `.file(url)`,
/// `.stream(body)`, or your own.
public struct BodyProvider: Sendable {
    let apply: @Sendable (inout RequestBuilder) throws -> Void

    /// A body provider that sets the body as `apply` does. An error it throws is kept and fails
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
    public static func json(_ value: some Encodable & Sendable, encoder: JSONEncoder? = nil) -> BodyProvider {
        BodyProvider { request in
            if let encoder { request.bodyEncoder = encoder } else { request.useJSON() }
            request.setBody(value)
        }
    }

    /// `value` as `application/x-www-form-urlencoded`.
    public static func form(_ value: some Encodable & Sendable, encoder: URLFormEncoder = URLFormEncoder()) -> BodyProvider {
        BodyProvider { request in request.setBody(value, as: .custom(encoder)) }
    }

    /// `multipart/form-data` parts.
    public static func multipart(_ form: MultipartForm) -> BodyProvider {
        BodyProvider { request in request.setBody(form) }
    }

    /// Text labelled `text/plain` with its charset.
    public static func text(_ text: String, encoding: String.Encoding = .utf8) -> BodyProvider {
        BodyProvider { request in request.setBody(text: text, encoding: encoding) }
    }

    /// Raw bytes.
    public static func data(_ data: Data, contentType: String = "application/octet-stream") -> BodyProvider {
        BodyProvider { request in request.setBody(data: data, contentType: contentType) }
    }

    /// A file, read in chunks as it is sent.
    public static func file(_ url: URL, contentType: String = "application/octet-stream") -> BodyProvider {
        BodyProvider { request in request.setBody(fileURL: url, contentType: contentType) }
    }

    /// Any stream of bytes.
    public static func stream(_ body: HTTPBody, contentType: String? = nil) -> BodyProvider {
        BodyProvider { request in request.setBody(body, contentType: contentType) }
    }
}
