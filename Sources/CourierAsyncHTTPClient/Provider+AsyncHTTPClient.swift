public import AsyncHTTPClient
public import Courier
@_exported public import CourierHTTPClientTransport
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
        // Read only through Courier: the parts before an unclean close reach the caller.
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration.keepingPartsBeforeAnUncleanClose())
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
