public import Foundation

/// A type that names an API: its base URL and the parts every request to it starts with.
///
/// ```swift
/// enum ShelfAPI: WebService {
///     case staging, live
///     var baseURL: URL { URL(string: self == .live ? "https://books.example.com" : "https://staging.books.example.com")! }
/// }
///
/// let api = ShelfAPI.staging
/// let user = try await api.send(api.get(.json(User.self), from: "/users/:id").parameter("id", 1))
/// ```
///
/// Unless you implement ``provider``, every value with the same base URL shares one provider —
/// and so one connection pool — for the life of the process.
public protocol WebService: Sendable {
    /// The API's base URL.
    var baseURL: URL { get }
    /// The provider requests are sent through.
    var provider: Provider { get }
    /// The start of every request; implement it to add parts every request has.
    func request<T>(_ method: HTTPRequest.Method, _ path: String, receiving decoder: ResponseDecoder<T>) -> Request<T>
}

extension WebService {
    /// One provider per type and base URL, made on first use and kept.
    public var provider: Provider {
        SharedProviders.provider(for: Self.self, baseURL: baseURL)
    }

    /// A request with `method` to `path`, read by `decoder`.
    public func request<T>(_ method: HTTPRequest.Method, _ path: String, receiving decoder: ResponseDecoder<T>) -> Request<T> {
        Request(method, path, receiving: decoder)
    }

    /// `GET path`, read by `decoder`.
    public func get<T>(_ decoder: ResponseDecoder<T>, from path: String) -> Request<T> { request(.get, path, receiving: decoder) }
    /// `GET path`, checking only the status.
    public func get(_ path: String) -> Request<Void> { request(.get, path, receiving: .none) }
    /// `HEAD path`.
    public func head(_ path: String) -> Request<Response> { request(.head, path, receiving: .response) }
    /// `DELETE path`.
    public func delete(_ path: String) -> Request<Void> { request(.delete, path, receiving: .none) }
    /// `POST` of `body` to `path`.
    public func post(_ body: BodyContent, to path: String) -> Request<Void> { request(.post, path, receiving: .none).body(body) }
    /// `PUT` of `body` to `path`.
    public func put(_ path: String, with body: BodyContent) -> Request<Void> { request(.put, path, receiving: .none).body(body) }
    /// `PATCH` of `body` to `path`.
    public func patch(_ path: String, with body: BodyContent) -> Request<Void> { request(.patch, path, receiving: .none).body(body) }

    /// Sends `request` through ``provider``.
    public func send<T>(_ request: Request<T>) async throws(CourierError) -> T {
        try await provider.send(request)
    }
}

/// The providers of ``WebService`` types that do not bring their own.
enum SharedProviders {
    private static let providers = Locked<[Key: Provider]>([:])

    struct Key: Hashable {
        let type: ObjectIdentifier
        let baseURL: String
    }

    static func provider(for type: Any.Type, baseURL: URL) -> Provider {
        let key = Key(type: ObjectIdentifier(type), baseURL: baseURL.absoluteString)
        return providers.withLock { providers in
            if let provider = providers[key] { return provider }
            let provider = Provider(baseURL: baseURL)
            providers[key] = provider
            return provider
        }
    }
}

/// The earlier name of ``WebService``, kept for one release: "provider" now names only
/// ``Provider``.
@available(*, deprecated, renamed: "WebService")
public typealias RequestProviding = WebService
