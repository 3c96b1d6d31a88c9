public import AsyncHTTPClient
public import Courier
public import NIOCore

extension Provider {
    /// A provider on AsyncHTTPClient that borrows `client`: you keep it and shut it down.
    public init(baseURL: String, client: HTTPClient, timeout: TimeAmount = .minutes(1)) {
        self.init(baseURL: baseURL, transport: HTTPClientTransport(client: client, timeout: timeout))
    }

    /// Runs `body` with a provider on an AsyncHTTPClient that this call creates and owns, and
    /// shuts the client down when `body` returns or throws.
    ///
    /// ```swift
    /// let user = try await Provider.withHTTPClient(baseURL: "https://api.example.com") { provider in
    ///     try await UsersAPI(provider: provider).user(id: 1)
    /// }
    /// ```
    public static func withHTTPClient<Result: Sendable>(
        baseURL: String,
        configuration: HTTPClient.Configuration = .courierDefault,
        timeout: TimeAmount = .minutes(1),
        _ body: (Provider) async throws -> Result
    ) async throws -> Result {
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        let result: Swift.Result<Result, any Error>
        do {
            result = .success(try await body(Provider(baseURL: baseURL, client: client, timeout: timeout)))
        } catch {
            result = .failure(error)
        }
        try await client.shutdown()
        return try result.get()
    }
}

extension HTTPClient.Configuration {
    /// AsyncHTTPClient's defaults with a connection pool sized for concurrent API calls (64
    /// connections per host rather than 8), and redirects not followed by the client: Courier
    /// follows them under its `RedirectPolicy`, which keeps credentials from other origins.
    public static var courierDefault: HTTPClient.Configuration {
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool = .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: 64)
        configuration.redirectConfiguration = .disallow
        return configuration
    }
}
