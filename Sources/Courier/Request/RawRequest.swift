import CourierWire
public import Foundation
public import HTTPTypes
public import OpenAPIRuntime

/// A request as it goes to the middleware chain and the transport: head, body, base URL and the
/// endpoint's name.
public struct RawRequest: Sendable {
    /// Method, path with query (relative to ``baseURL``) and headers.
    package var head: HTTPRequest { _read { yield parts.head } _modify { yield &parts.head } }
    /// The body, if there is one.
    ///
    /// A body Courier encoded is kept as its bytes until something asks for it here; each read
    /// then gives a new `HTTPBody` of those bytes.
    public var body: HTTPBody? {
        get { payload?.httpBody }
        set { payload = newValue.map { .stream($0) } }
    }
    /// The body as it is held.
    var payload: RequestPayload? { _read { yield parts.payload } _modify { yield &parts.payload } }
    /// The base URL the path is relative to.
    public var baseURL: URL { _read { yield parts.baseURL } _modify { yield &parts.baseURL } }
    /// The endpoint's name, such as `"Users.getUser"`.
    public var operationID: String { _read { yield parts.operationID } _modify { yield &parts.operationID } }
    /// Whether the response is read as a stream: interceptors then see it without its body,
    /// which passes them unread.
    public var streamsResponse: Bool { _read { yield parts.streamsResponse } _modify { yield &parts.streamsResponse } }
    /// Which attempt this is, from 1: a retry or a send after a refreshed credential is a later
    /// one. Interceptors see it; the first attempt is 1 whether or not a retry policy is set.
    public internal(set) var attempt: Int { _read { yield parts.attempt } _modify { yield &parts.attempt } }

    /// A request with `head` and `body`, its path relative to `baseURL`.
    public init(head: HTTPRequest, body: HTTPBody? = nil, baseURL: URL, operationID: String, streamsResponse: Bool = false) {
        storage = Storage(Parts(head: head, payload: body.map { .stream($0) }, baseURL: baseURL, operationID: operationID, streamsResponse: streamsResponse))
    }

    /// A request with `head` and a body as the pipeline holds it.
    init(head: HTTPRequest, payload: RequestPayload?, baseURL: URL, operationID: String) {
        storage = Storage(Parts(head: head, payload: payload, baseURL: baseURL, operationID: operationID, streamsResponse: false))
    }

    // MARK: Storage

    /// The parts, in a box shared by copies of this request until one of them changes: a copy
    /// costs one reference, not a copy of each part.
    private var storage: Storage

    private struct Parts {
        var head: HTTPRequest
        var payload: RequestPayload?
        var baseURL: URL
        var operationID: String
        var streamsResponse: Bool
        var attempt = 1
    }

    /// Written only through a request that holds the only reference to it (`parts`' `_modify`),
    /// so a box shared between requests, and threads, is only read.
    private final class Storage: @unchecked Sendable {
        @exclusivity(unchecked) var parts: Parts
        init(_ parts: Parts) { self.parts = parts }
    }

    private var parts: Parts {
        _read { yield storage.parts }
        _modify {
            if !isKnownUniquelyReferenced(&storage) { storage = Storage(storage.parts) }
            yield &storage.parts
        }
    }

    /// The method.
    public var method: HTTPRequest.Method {
        get { head.method }
        set { head.method = newValue }
    }

    /// The path and query, relative to ``baseURL``, percent-encoded.
    public var path: String {
        get { head.path ?? "/" }
        set { head.path = newValue }
    }

    /// The headers.
    public var headers: HTTPFields {
        get { head.headerFields }
        set { head.headerFields = newValue }
    }

    /// The full URL: ``baseURL`` followed by ``path``.
    public var url: URL? {
        URL(string: baseURL.absoluteString + path)
    }

    /// The body's bytes, read up to `limit`. A body that can be read only once is read here and
    /// replaced by a buffered copy, so the request can still be sent.
    public mutating func collectBody(upTo limit: Int = .max) async throws -> Data? {
        if case .bytes(let data) = payload, data.count <= limit { return data }
        guard let body else { return nil }
        let data = try await Data(collecting: body, upTo: limit)
        if body.iterationBehavior == .single { payload = .bytes(data) }
        return data
    }
}
