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
/// request.addHeader(.accept, value: "application/json")
/// ```
public struct RequestBuilder: Sendable {
    /// The HTTP method.
    public var method: HTTPRequest.Method
    /// The path template, relative to the provider's base URL: `/users/:id`, `/files/{name}.json`,
    /// with an optional static query (`/search?kind=repo`).
    public var path: String
    /// The endpoint's name, such as `"Users.getUser"`; logs, traces and errors carry it.
    public var operationID: String?

    /// The name in logs, traces and errors: the operation ID, or the method and path.
    var reportedName: String { operationID ?? "\(method) \(path)" }

    /// Headers to send. Prefer `addHeader(_:value:)`, which rejects CR, LF and NUL.
    public var headers = HTTPFields()
    /// Overrides the provider's key mapping for this request.
    public var keyMapping: KeyMapping? {
        get { options?.value.keyMapping }
        set { updateOptions { $0.keyMapping = newValue } }
    }
    /// Overrides the provider's body encoder for this request.
    public var bodyEncoder: (any BodyEncoder)? {
        get { options?.value.bodyEncoder }
        set { updateOptions { $0.bodyEncoder = newValue } }
    }
    /// Overrides the provider's decoder of response bodies for this request.
    public var bodyDecoder: (any BodyDecoder)? {
        get { options?.value.bodyDecoder }
        set { updateOptions { $0.bodyDecoder = newValue } }
    }
    /// How arrays in query items are written; a repeated key (`tags=a&tags=b`) unless set. For
    /// every request of a provider: `provider.modifyRequests { $0.queryArrayEncoding = .brackets }`.
    public var queryArrayEncoding: ArrayEncoding? {
        get { options?.value.queryArrayEncoding }
        set { updateOptions { $0.queryArrayEncoding = newValue } }
    }
    /// Sends to this URL instead of the provider's base URL and ``path``, when set; its path and
    /// query are used as written.
    public var absoluteURL: URL? {
        get { options?.value.absoluteURL }
        set { updateOptions { $0.absoluteURL = newValue } }
    }
    /// Bounds of this request's wait over the provider's ``Provider/timeouts``.
    public var timeouts: Timeouts {
        get { options?.value.timeouts ?? Timeouts() }
        set { updateOptions { $0.timeouts = newValue } }
    }
    /// When this request is sent again after a failure, over the provider's
    /// ``Provider/retryPolicy``; `nil` keeps the provider's.
    public var retryPolicy: RetryPolicy? {
        get { options?.value.retryPolicy }
        set { updateOptions { $0.retryPolicy = newValue } }
    }
    /// How this request uses the provider's ``Provider/cache``; `nil` is
    /// ``CachePolicy/useProtocol``.
    public var cachePolicy: CachePolicy? {
        get { options?.value.cachePolicy }
        set { updateOptions { $0.cachePolicy = newValue } }
    }
    /// Told how much of the body has been sent.
    var uploadProgress: ProgressHandler? {
        get { options?.value.uploadProgress }
        set { updateOptions { $0.uploadProgress = newValue } }
    }
    /// Told how much of the response body has arrived.
    var downloadProgress: ProgressHandler? {
        get { options?.value.downloadProgress }
        set { updateOptions { $0.downloadProgress = newValue } }
    }

    /// The options above, which most requests leave unset, behind one optional reference: a
    /// request is copied and kept (in an async frame too) as a few words instead of all of them.
    private var options: Frozen<OptionValues>?

    private struct OptionValues: Sendable {
        var keyMapping: KeyMapping?
        var bodyEncoder: (any BodyEncoder)?
        var bodyDecoder: (any BodyDecoder)?
        var queryArrayEncoding: ArrayEncoding?
        var absoluteURL: URL?
        var timeouts = Timeouts()
        var retryPolicy: RetryPolicy?
        var cachePolicy: CachePolicy?
        var uploadProgress: ProgressHandler?
        var downloadProgress: ProgressHandler?
    }

    /// Sets an option on a copy of the options: a request's options are set a few times at
    /// most, before it is sent.
    private mutating func updateOptions(_ change: (inout OptionValues) -> Void) {
        var values = options?.value ?? OptionValues()
        change(&values)
        options = Frozen(values)
    }

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

    /// For generated code (`@API`, and `@Endpoint` with a method by name): starts a request with
    /// a method given by name, such as `"PURGE"`; a name that is not a valid method token is
    /// reported when the request is sent. Code of your own passes an `HTTPRequest.Method`:
    /// `RequestBuilder(method: HTTPRequest.Method("PURGE")!, path: …)`.
    public static func __make(method: String, path: String, operationID: String? = nil) -> RequestBuilder {
        // The common methods without checking their names again, character by character.
        switch method {
        case "GET": return RequestBuilder(method: .get, path: path, operationID: operationID)
        case "POST": return RequestBuilder(method: .post, path: path, operationID: operationID)
        case "PUT": return RequestBuilder(method: .put, path: path, operationID: operationID)
        case "PATCH": return RequestBuilder(method: .patch, path: path, operationID: operationID)
        case "DELETE": return RequestBuilder(method: .delete, path: path, operationID: operationID)
        default: break
        }
        guard let parsed = HTTPRequest.Method(method) else {
            var builder = RequestBuilder(method: .get, path: path, operationID: operationID)
            builder.problems.append(.invalidMethod(method))
            return builder
        }
        return RequestBuilder(method: parsed, path: path, operationID: operationID)
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

    // Disfavored so that a value that is also `RawRepresentable` takes the raw-value form.
    /// Sets the value of the `:name` or `{name}` placeholder in the path. The value is
    /// percent-encoded so that it stays inside its segment; `nil` is reported as a missing value
    /// when the request is sent, never written as "nil".
    @_disfavoredOverload
    @inlinable  // specialized where it is called: generic, it would look up `T?`'s metadata each time
    public mutating func addParameter<T: CustomStringConvertible>(_ name: String, value: T?) {
        // `description` directly: `String(describing:)` looks for other conformances by dynamic
        // casts first, on every call.
        if let value { setParameter(name, value.description) } else { setParameter(name, nil) }
    }

    /// Sets a placeholder to an enum's raw value; `nil` is reported as a missing value.
    @inlinable
    public mutating func addParameter<T: RawRepresentable>(_ name: String, value: T?)
    where T.RawValue: CustomStringConvertible {
        if let value { setParameter(name, value.rawValue.description) } else { setParameter(name, nil) }
    }

    @usableFromInline
    mutating func setParameter(_ name: String, _ value: String?) {
        if let index = parameters.firstIndex(where: { $0.name == name }) {
            parameters[index].value = value
        } else {
            // Room for a path's few placeholders at the first: one allocation, not one per doubling.
            if parameters.isEmpty { parameters.reserveCapacity(4) }
            parameters.append((name, value))
        }
    }
}
