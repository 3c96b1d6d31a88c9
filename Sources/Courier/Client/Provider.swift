public import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
public import OpenAPIRuntime

/// Sends requests: applies request modifiers, encodes, runs the middleware chain around the
/// transport, and decodes the response.
///
/// A provider is a value: `modifyRequests`, `intercept` and `with(middleware:)` return a new
/// provider, so configure it once and share it.
///
/// ```swift
/// let provider = Provider(baseURL: "https://api.example.com/v1")
///     .modifyRequests { req in req.addHeader("X-Client", value: "courier") }
///     .intercept { req, next in
///         let res = try await next(req)
///         print(req.method, req.path, res.statusCode ?? 0)
///         return res
///     }
/// let users: Users = UsersAPI(provider: provider)
/// ```
public struct Provider: Sendable {
    let base: Result<URL, CourierError>
    /// The base URL's parts, worked out once.
    let baseParts: BaseURLParts?
    /// Sends the requests: AsyncHTTPClient on Linux and URLSession on Apple platforms unless you
    /// choose another (see ``urlSessionTransport``).
    public var transport: any ClientTransport {
        didSet { rebound() }
    }
    /// Whom connections trust, whether they may use HTTP/2, and the proxy they go through.
    var connections: ConnectionSettings {
        get { connectionsBox.value }
        set {
            connectionsBox.value = newValue
            rebound()
        }
    }
    /// The settings behind one reference: a provider is copied into every call's frames, and the
    /// settings are read only when the transport is bound.
    private var connectionsBox = Provider.defaultConnections
    private static let defaultConnections = Frozen(ConnectionSettings())
    /// How long requests may wait to connect, for the next byte and in all; ``Timeouts/standard``
    /// unless you set it. Each request can override any bound.
    public var timeouts: Timeouts = .standard {
        didSet { rebound() }
    }
    /// The transport with the provider's connect and idle bounds and body limit applied, made
    /// once.
    private(set) var boundTransport: BoundTransport
    /// Middleware and interceptors, outermost first.
    public var middlewares: [any ClientMiddleware] {
        didSet { stages = middlewares.map(MiddlewareStage.init) }
    }
    /// The middleware as the exchange runs it, made when it is set.
    private(set) var stages: [MiddlewareStage]
    /// Request modifiers, applied in order before a request is encoded.
    public var modifiers: [any RequestModifier]
    /// The most bytes of a response body that are read into memory; a longer body fails the
    /// request with ``CourierError/Kind/responseTooLarge`` while it arrives. 64 MiB unless you
    /// set it.
    public var responseBodyLimit: Int = Provider.defaultBodyLimit {
        didSet { rebound() }
    }
    /// The longest request target — path and query, base path included — that is sent, in bytes;
    /// a longer one fails with ``CourierError/Kind/invalidRequest`` before anything is sent.
    /// 16 KiB unless you set it: beyond that, servers answer `414` or close the connection.
    public var maxRequestTargetLength = 16 * 1024
    /// Whether redirects are followed, and which headers never go to another origin.
    public var redirects: RedirectPolicy = .follow()
    /// Checks run on every response before it is decoded, in order.
    var validators: [Validator] = []
    /// Keeps cookies across requests and redirect hops, when set.
    var cookieJar: CookieJar?
    /// When failed requests are sent again; ``RetryPolicy/disabled`` unless you choose a policy.
    /// Each request can override it.
    public var retryPolicy: RetryPolicy = .disabled
    /// Keeps responses the server allows to be reused and answers from them (RFC 9111); `nil`,
    /// no cache, unless you set one. Copies of the provider share it.
    public var cache: HTTPCache?
    /// How much extra load retries may add, shared by every request of this provider and its
    /// copies; `nil` puts no limit beyond each request's policy.
    public var retryBudget: RetryBudget? = RetryBudget()
    /// The clock that retry waits and the deadlines they respect are measured on; a test can
    /// give one that records the waits instead of sleeping.
    public var clock: any Clock<Duration> = ContinuousClock()
    /// Applies and refreshes credentials, when set with ``authenticated(with:)``.
    var authenticator: (any RequestAuthenticating)?
    /// Where requests are reported — spans, metrics, log entries; the bootstrapped tracer and
    /// metrics backend, and no log, unless you choose otherwise.
    public var observability = Observability()
    /// How arrays in query items are written when a request does not say: a repeated key.
    var queryArrayEncoding: ArrayEncoding = .repeatedKey

    /// How keys of queries, fields, bodies and responses are spelled.
    public var keyMapping: KeyMapping {
        didSet { updateCoders() }
    }
    /// The body encoder, JSON unless you choose otherwise.
    public var bodyEncoder: any BodyEncoder {
        didSet { updateCoders() }
    }
    /// The decoder of response bodies, JSON unless you choose otherwise.
    public var bodyDecoder: any BodyDecoder {
        didSet { updateCoders() }
    }

    // The coders with the key mapping applied, made once rather than per request.
    private(set) var mappedEncoder: any BodyEncoder
    private(set) var mappedDecoder: any BodyDecoder

    /// A provider for the API at `baseURL`. The base URL may end with a slash or not and may
    /// carry a path prefix (`https://host/api/v1`); request paths are appended to it. A string
    /// that is not an absolute http(s) URL makes every request fail with
    /// ``CourierError/Kind/invalidRequest``.
    public init(
        baseURL: String,
        transport: (any ClientTransport)? = nil,
        modifiers: [any RequestModifier] = [],
        interceptors: [any Interceptor] = [],
        middlewares: [any ClientMiddleware] = [],
        keyMapping: KeyMapping = .useDefaultKeys,
        encoder: any BodyEncoder = Provider.defaultJSONEncoder(),
        decoder: any BodyDecoder = JSONDecoder()
    ) {
        self.base = Self.normalize(baseURL)
        self.baseParts = try? BaseURLParts(self.base.get())
        self.transport = transport ?? Self.defaultTransport
        self.boundTransport = BoundTransport(self.transport, .standard, bodyLimit: Self.defaultBodyLimit, connections: ConnectionSettings())
        self.modifiers = modifiers
        self.middlewares = interceptors.map { InterceptorMiddleware($0) } + middlewares
        self.stages = self.middlewares.map(MiddlewareStage.init)
        self.keyMapping = keyMapping
        self.bodyEncoder = encoder
        self.bodyDecoder = decoder
        self.mappedEncoder = encoder
        self.mappedDecoder = decoder
        updateCoders()
    }

    /// A provider for the API at `baseURL`.
    public init(
        baseURL: URL,
        transport: (any ClientTransport)? = nil,
        modifiers: [any RequestModifier] = [],
        interceptors: [any Interceptor] = [],
        middlewares: [any ClientMiddleware] = [],
        keyMapping: KeyMapping = .useDefaultKeys,
        encoder: any BodyEncoder = Provider.defaultJSONEncoder(),
        decoder: any BodyDecoder = JSONDecoder()
    ) {
        self.init(
            baseURL: baseURL.absoluteString,
            transport: transport,
            modifiers: modifiers,
            interceptors: interceptors,
            middlewares: middlewares,
            keyMapping: keyMapping,
            encoder: encoder,
            decoder: decoder
        )
    }

    /// 64 MiB: the most bytes of a response body read into memory unless you choose otherwise.
    static let defaultBodyLimit = 64 * 1024 * 1024

    /// The base URL, without a trailing slash; `nil` when the one given was not valid.
    package var baseURL: URL? { try? base.get() }

    private mutating func rebound() {
        boundTransport = BoundTransport(transport, timeouts, bodyLimit: responseBodyLimit, connections: connections)
    }

    private mutating func updateCoders() {
        mappedEncoder = keyMapping.isDefault ? bodyEncoder : bodyEncoder.with(keyMapping: keyMapping)
        mappedDecoder = keyMapping.isDefault ? bodyDecoder : bodyDecoder.with(keyMapping: keyMapping)
    }

    /// Accepts absolute http(s) URLs and drops a trailing slash, so that `/users` appended to
    /// `https://host/api/` gives `https://host/api/users`.
    static func normalize(_ string: String) -> Result<URL, CourierError> {
        // Foundation would percent-encode a space or a control character and send it; refuse it.
        if string.unicodeScalars.contains(where: { $0.properties.isWhitespace || $0.properties.generalCategory == .control }) {
            return .failure(CourierError(.unsafeBaseURL(string)))
        }
        var trimmed = string
        while trimmed.hasSuffix("/") { trimmed.removeLast() }
        guard let url = URL(string: trimmed), let scheme = url.scheme?.lowercased(),
            scheme == "http" || scheme == "https", let host = url.host, !host.isEmpty,
            url.query == nil, url.fragment == nil
        else {
            return .failure(CourierError(.invalidBaseURL(string)))
        }
        return .success(url)
    }

    /// JSON with keys sorted, so that the same value always gives the same bytes (Foundation's
    /// encoder otherwise writes keys in an order that changes from run to run).
    @usableFromInline static func defaultJSONEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }
}

extension Provider {
    /// A copy that applies `modifier` to every request before it is encoded.
    public func modifyRequests(_ modifier: any RequestModifier) -> Provider {
        var copy = self
        copy.modifiers.append(modifier)
        return copy
    }

    /// A copy that runs `action` on every request before it is encoded.
    public func modifyRequests(
        fileID: String = #fileID,
        line: Int = #line,
        action: @escaping @Sendable (inout RequestBuilder) throws -> Void
    ) -> Provider {
        modifyRequests(ClosureModifier(action: action, name: "modifier at \(fileID):\(line)"))
    }

    /// A copy that runs `interceptor` around every request, inside the ones added before it.
    public func intercept(_ interceptor: any Interceptor) -> Provider {
        with(middleware: InterceptorMiddleware(interceptor))
    }

    /// A copy that runs `action` around every request; call `next` to continue.
    public func intercept(
        fileID: String = #fileID,
        line: Int = #line,
        action: @escaping @Sendable (RawRequest, Interceptor.Next) async throws -> Response
    ) -> Provider {
        with(middleware: InterceptorMiddleware(ClosureInterceptor(action: action), name: "interceptor at \(fileID):\(line)"))
    }

    /// A copy that runs `middleware` — any swift-openapi-runtime `ClientMiddleware` — around
    /// every request, inside the ones added before it.
    public func with(middleware: any ClientMiddleware) -> Provider {
        var copy = self
        copy.middlewares.append(middleware)
        return copy
    }

    /// A copy that checks every response with `validator` before it is decoded; a thrown error
    /// fails the call as ``CourierError/Kind/validation``, the error kept as its underlying error.
    public func validating(
        fileID: String = #fileID,
        line: Int = #line,
        _ validator: @escaping @Sendable (Response) throws -> Void
    ) -> Provider {
        var copy = self
        copy.validators.append(Validator(name: "validator at \(fileID):\(line)", check: validator))
        return copy
    }
}
