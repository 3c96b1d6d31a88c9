import Foundation
import HTTPTypes
public import Logging

/// An interceptor that logs each request as a `curl` command, always or only when it fails.
///
/// ```swift
/// let provider = Provider(baseURL: "https://api.example.com")
///     .intercept(CURLLogger(when: .onError, logger: Logger(label: "api")))
/// ```
///
/// Secret headers are redacted as ``RawRequest/cURL(secrets:revealing:)`` describes. A request
/// that the provider's ``HTTPCache`` answers is not sent; it is logged all the same, with `cache`
/// metadata (`hit` or `stale`) and its `age` in seconds.
public struct CURLLogger: Interceptor {
    /// When to log.
    public struct Mode: Hashable, Sendable {
        let always: Bool
        /// Every request.
        public static let always = Mode(always: true)
        /// Requests that throw or answer outside 200–299.
        public static let onError = Mode(always: false)
    }

    /// Whether every request is logged or only those that fail.
    let mode: Mode
    /// The logger the `curl` commands are written to.
    let logger: Logger
    /// The level the commands are logged at; `debug` unless given.
    let level: Logger.Level
    /// Headers to redact besides `Authorization`, `Cookie` and `Proxy-Authorization`.
    let secrets: Set<HTTPField.Name>
    /// Headers to show even though they are secret.
    let revealing: Set<HTTPField.Name>

    /// A logger that writes requests to `logger` at `level`, every one or only failures as `mode` says.
    public init(
        when mode: Mode = .always,
        logger: Logger = Logger(label: "Courier.cURL"),
        level: Logger.Level = .debug,
        secrets: Set<HTTPField.Name> = [],
        revealing: Set<HTTPField.Name> = []
    ) {
        self.mode = mode
        self.logger = logger
        self.level = level
        self.secrets = secrets
        self.revealing = revealing
    }

    /// Builds the `curl` command before sending, then logs it with the operation ID and the status or error, as
    /// `mode` says; the response or error passes through unchanged.
    public func intercept(req: RawRequest, next: Next) async throws -> Response {
        let command = await req.cURL(secrets: secrets, revealing: revealing)
        let metadata: Logger.Metadata = ["operation": "\(req.operationID)"]
        do {
            let response = try await next(req)
            if mode.always || !response.isSuccess {
                logger.log(level: level, "\(command)", metadata: metadata.merging(["status": "\(response.head.status.code)"]) { $1 })
            }
            return response
        } catch {
            logger.log(level: level, "\(command)", metadata: metadata.merging(["error": "\(error)"]) { $1 })
            throw error
        }
    }

    /// Logs `req`, which the cache answered without sending it, as ``intercept(req:next:)`` would
    /// have, with `cache` and `age` metadata.
    public func answeredFromCache(_ req: RawRequest, status: Int, outcome: CacheOutcome) async {
        guard mode.always || !(200..<300).contains(status) else { return }
        let command = await req.cURL(secrets: secrets, revealing: revealing)
        let age: Duration
        switch outcome {
        case .hit(let value), .stale(let value): age = value
        case .miss, .revalidated, .unavailable: return
        }
        logger.log(
            level: level,
            "\(command)",
            metadata: ["operation": "\(req.operationID)", "status": "\(status)", "cache": "\(outcome.name)", "age": "\(age.components.seconds)"]
        )
    }
}
