public import Foundation
public import HTTPTypes
import OpenAPIRuntime

/// A request being described: method, path template, path values, query, headers and body.
///
/// Every front-end — `@API` protocols, request structs, the fluent ``Request`` — fills one of
/// these; ``Provider`` turns it into bytes on the wire. Values are stored as given and encoded
/// when the request is sent, with the coders and key mapping in force then, so the order in which
/// you set things does not matter. Problems (an unsafe header value, a missing path value) are
/// reported by ``Provider`` as a ``CourierError`` when the request is sent; nothing is dropped or
/// rewritten silently.
///
/// ```swift
/// var request = RequestBuilder(method: .get, path: "/users/:id/repos")
/// request.addParameter("id", value: 42)
/// request.addQuery("sort", value: "updated")
/// request.addHeader("X-Request-ID", value: "abc-123")
/// ```
public struct RequestBuilder: Sendable {
    /// The HTTP method.
    public var method: HTTPRequest.Method
    /// The path template, relative to the provider's base URL: `/users/:id`, `/files/{name}.json`,
    /// with an optional static query (`/search?kind=repo`).
    public var path: String
    /// The endpoint's name, such as `"Users.getUser"`; logs, traces and errors carry it.
    public var operationID: String?
    /// Headers to send. Prefer ``addHeader(_:value:)``, which rejects CR, LF and NUL.
    public var headers: HTTPFields = [:]
    /// Overrides the provider's key mapping for this request.
    public var keyMapping: KeyMapping?
    /// Overrides the provider's body encoder for this request.
    public var bodyEncoder: (any RequestBodyEncoder)?
    /// Overrides the provider's response decoder for this request.
    public var responseDecoder: (any ResponseBodyDecoder)?
    /// Overrides the provider's array style for query items.
    public var queryArrayEncoding: ArrayEncoding?
    /// Sends to this URL instead of the provider's base URL and ``path``, when set; its path and
    /// query are used as written.
    public var absoluteURL: URL?

    var parameters: [(name: String, value: String?)] = []
    var queryItems: [QueryEntry] = []
    var body: RequestBody?
    var fields: [(key: String, value: any Encodable & Sendable)] = []
    var parts: [(name: String, part: Part)] = []
    /// Problems found while the request was described, reported when it is sent.
    var problems: [CourierError.Cause] = []

    /// Starts a request with `method` to `path`.
    public init(method: HTTPRequest.Method, path: String, operationID: String? = nil) {
        self.method = method
        self.path = path
        self.operationID = operationID
    }

    /// Starts a request with a method given by name, such as `"PURGE"`; a name that is not a
    /// valid method token is reported when the request is sent.
    public init(method: String, path: String, operationID: String? = nil) {
        if let parsed = HTTPRequest.Method(method) {
            self.init(method: parsed, path: path, operationID: operationID)
        } else {
            self.init(method: .get, path: path, operationID: operationID)
            problems.append(.invalidMethod(method))
        }
    }
}

struct QueryEntry: Sendable {
    enum Value: Sendable {
        case encodable(any Encodable & Sendable)
        case string(String?)
    }
    var key: String
    var value: Value
    /// Keys written by hand in a query item are mapped too, unless added with `mapKey: false`.
    var mapsKey: Bool
}

/// The body of a request, in the form it was given.
struct RequestBody: Sendable {
    enum Content: Sendable {
        case encodable(any Encodable & Sendable)
        case data(Data, contentType: String?)
        case text(String, contentType: String, encoding: String.Encoding)
        case stream(HTTPBody, contentType: String?)
        case file(URL, contentType: String?)
    }
    var content: Content
}

extension RequestBuilder {
    // MARK: Path

    /// Sets the value of the `:name` or `{name}` placeholder in the path. The value is
    /// percent-encoded so that it stays inside its segment.
    public mutating func addParameter(_ name: String, value: some CustomStringConvertible) {
        setParameter(name, String(describing: value))
    }

    /// Sets a placeholder to an enum's raw value.
    public mutating func addParameter<T: RawRepresentable>(_ name: String, value: T)
    where T.RawValue: CustomStringConvertible {
        setParameter(name, value.rawValue.description)
    }

    /// Sets a placeholder to an enum's raw value.
    public mutating func addParameter<T: RawRepresentable & CustomStringConvertible>(_ name: String, value: T)
    where T.RawValue: CustomStringConvertible {
        setParameter(name, value.rawValue.description)
    }

    /// Sets a placeholder from an optional; `nil` is reported as a missing value when the
    /// request is sent, never written as "nil".
    public mutating func addParameter<T: CustomStringConvertible>(_ name: String, value: T?) {
        setParameter(name, value.map { String(describing: $0) })
    }

    /// Sets a placeholder from an optional enum; `nil` is reported as a missing value.
    public mutating func addParameter<T: RawRepresentable>(_ name: String, value: T?)
    where T.RawValue: CustomStringConvertible {
        setParameter(name, value.map { $0.rawValue.description })
    }

    mutating func setParameter(_ name: String, _ value: String?) {
        if let index = parameters.firstIndex(where: { $0.name == name }) {
            parameters[index].value = value
        } else {
            parameters.append((name, value))
        }
    }

    // MARK: Query

    /// Adds a query item. Any `Encodable` works: strings, numbers, `Bool`, dates (ISO 8601),
    /// enums with raw values, arrays (repeated key unless ``queryArrayEncoding`` says otherwise)
    /// and nested values (`filter[status]=open`). An optional that is `nil` adds nothing. Keys
    /// follow the key mapping.
    public mutating func addQuery(_ key: String, value: some Encodable & Sendable) {
        queryItems.append(QueryEntry(key: key, value: .encodable(value), mapsKey: true))
    }

    /// Adds a query item holding text; `nil` adds nothing.
    public mutating func addQuery(_ key: String, value: String?) {
        guard let value else { return }
        queryItems.append(QueryEntry(key: key, value: .string(value), mapsKey: true))
    }

    /// Adds a query item holding an integer; `nil` adds nothing.
    public mutating func addQuery(_ key: String, value: Int?) {
        guard let value else { return }
        queryItems.append(QueryEntry(key: key, value: .string(String(value)), mapsKey: true))
    }

    /// Adds a query item holding `true` or `false`; `nil` adds nothing.
    public mutating func addQuery(_ key: String, value: Bool?) {
        guard let value else { return }
        queryItems.append(QueryEntry(key: key, value: .string(value ? "true" : "false"), mapsKey: true))
    }

    /// Adds a query item holding an enum's raw value.
    public mutating func addQuery<T: RawRepresentable & Sendable>(_ key: String, value: T)
    where T.RawValue: Encodable & Sendable {
        addQuery(key, value: value.rawValue)
    }

    /// Adds a query item holding an enum's raw value.
    public mutating func addQuery<T: RawRepresentable & Encodable & Sendable>(_ key: String, value: T)
    where T.RawValue: Encodable & Sendable {
        addQuery(key, value: value.rawValue)
    }

    /// Adds a query item holding an optional enum's raw value; `nil` adds nothing.
    public mutating func addQuery<T: RawRepresentable & Sendable>(_ key: String, value: T?)
    where T.RawValue: Encodable & Sendable {
        addQuery(key, value: value?.rawValue)
    }

    /// Adds query items holding enums' raw values.
    public mutating func addQuery<T: RawRepresentable & Sendable>(_ key: String, value: [T])
    where T.RawValue: Encodable & Sendable {
        addQuery(key, value: value.map(\.rawValue))
    }

    /// Adds a query item exactly as given: the key is not mapped, `nil` is sent as a bare key
    /// (`?flag`).
    public mutating func addRawQuery(_ key: String, value: String?) {
        queryItems.append(QueryEntry(key: key, value: .string(value), mapsKey: false))
    }

    // MARK: Headers

    /// Adds a header. A name that is not a valid field name, or a value containing CR, LF or
    /// NUL, is reported when the request is sent and never reaches the wire.
    public mutating func addHeader(_ name: String, value: some CustomStringConvertible) {
        appendHeader(name, String(describing: value), replacing: false)
    }

    /// Adds a header from an optional; `nil` adds nothing.
    public mutating func addHeader<T: CustomStringConvertible>(_ name: String, value: T?) {
        guard let value else { return }
        appendHeader(name, String(describing: value), replacing: false)
    }

    /// Adds a header holding an enum's raw value.
    public mutating func addHeader<T: RawRepresentable>(_ name: String, value: T)
    where T.RawValue: CustomStringConvertible {
        appendHeader(name, value.rawValue.description, replacing: false)
    }

    /// Sets a header, replacing every earlier value of the same name.
    public mutating func setHeader(_ name: String, value: some CustomStringConvertible) {
        appendHeader(name, String(describing: value), replacing: true)
    }

    mutating func appendHeader(_ name: String, _ value: String, replacing: Bool) {
        guard let fieldName = HTTPField.Name(name) else {
            problems.append(.invalidHeaderName(name))
            return
        }
        guard HeaderValidation.isSafe(value) else {
            problems.append(.invalidHeaderValue(name: name, value: value))
            return
        }
        if replacing { headers[values: fieldName] = [] }
        headers.append(HTTPField(name: fieldName, value: value))
    }

    // MARK: Body

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
        fields.append((key, value))
    }
}

enum HeaderValidation {
    /// CR, LF and NUL would split or truncate the header; swift-http-types would replace them
    /// with spaces, so they are caught before a field is built.
    static func isSafe(_ value: String) -> Bool {
        !value.utf8.contains { $0 == 0x0D || $0 == 0x0A || $0 == 0x00 }
    }
}
