public import AsyncHTTPClient
public import Foundation
public import HTTPTypes
public import NIOCore
package import CourierWire
import NIOConcurrencyHelpers
import NIOHTTP1
import NIOPosix
import NIOSSL
public import OpenAPIRuntime
import Tracing

/// A `ClientTransport` on AsyncHTTPClient that streams request and response bodies.
///
/// It exists beside `OpenAPIAsyncHTTPClient.AsyncHTTPClientTransport` because that transport
/// lower-cases every request header name and keeps only the last of repeated response headers
/// (two `Set-Cookie` headers arrive as one); `AsyncHTTPClientTests.shippedTransportDefects` shows
/// both. This one sends names as written and keeps every response header. On Linux it is
/// Courier's default transport, over ``shared``.
public struct HTTPClientTransport: ClientTransport {
    /// The client requests go through.
    package let client: HTTPClient
    /// The deadline for each request, from start to the end of the response head.
    var timeout: TimeAmount
    /// Whether the client traces its requests. Its configuration is fixed when it is made, so
    /// this is read once, not on every request (reading it copies the tracing settings). A client
    /// made with AsyncHTTPClient's default configuration keeps the process-wide tracer, so this is
    /// `true` for it and its tracer is read per request as before; Courier's own clients have none.
    let clientTraces: Bool

    /// Bodies of known length up to this size are sent and read as one buffer; longer ones, and
    /// those of unknown length, stream.
    static let bufferedLimit: Int64 = 256 * 1024

    /// The transport of `Provider(baseURL:)` on Linux: a process-wide client configured as
    /// `HTTPClient.Configuration.courierDefault`, never shut down, so nobody has to.
    public static let shared = HTTPClientTransport(
        client: HTTPClient(eventLoopGroupProvider: .singleton, configuration: HTTPClient.Configuration.courierDefault.keepingPartsBeforeAnUncleanClose()),
        processWideTimeout: HTTPClient.Configuration.courierDefault.timeout
    )

    /// For a transport on one of the process-wide clients, the timeouts its client was made
    /// with; ``bounded(connect:read:)`` may swap that client for another. `nil` for a client of
    /// your own.
    package let processWideTimeout: HTTPClient.Configuration.Timeout?
    /// A provider's connection settings — trust, HTTP/2, proxy: on a process-wide client, that
    /// client's own; on a client of yours, the TLS configuration goes with each request. `nil`
    /// for the defaults.
    package var settings: HTTPClientSettings? { configured?.settings }
    /// The settings, and for a proxy that some hosts bypass the process-wide client without it,
    /// behind one reference: the transport is held in every call's frames, and the settings are
    /// read only when they are not the defaults.
    private let configured: Configured?

    private final class Configured: Sendable {
        let settings: HTTPClientSettings
        let direct: HTTPClient?
        init(_ settings: HTTPClientSettings, direct: HTTPClient?) {
            self.settings = settings
            self.direct = direct
        }
    }

    /// A transport over `client`, which you keep and shut down; `timeout` is the deadline for each
    /// request, from start to the end of the response head.
    public init(client: HTTPClient, timeout: TimeAmount = .minutes(1)) {
        self.init(client: client, timeout: timeout, processWideTimeout: nil, settings: nil)
    }

    private init(
        client: HTTPClient, timeout: TimeAmount = .minutes(1), processWideTimeout: HTTPClient.Configuration.Timeout?,
        settings: HTTPClientSettings? = nil, direct: HTTPClient? = nil
    ) {
        self.client = client
        self.timeout = timeout
        self.clientTraces = client.tracer != nil
        self.processWideTimeout = processWideTimeout
        self.configured = settings.map { Configured($0, direct: direct) }
    }

    /// This transport with `connect` and `read` as its client's timeouts, where given. A
    /// process-wide transport switches to the process-wide client configured so (made on first
    /// use); a client of your own keeps its configuration, so this transport is returned as it is.
    package func bounded(connect: Duration?, read: Duration?) -> HTTPClientTransport {
        guard let current = processWideTimeout else { return self }
        var wanted = current
        if let connect { wanted.connect = TimeAmount.nanoseconds(Self.nanoseconds(connect)) }
        if let read { wanted.read = TimeAmount.nanoseconds(Self.nanoseconds(read)) }
        guard ProcessWideClients.Key(wanted, settings) != ProcessWideClients.Key(current, settings) else { return self }
        return Self.processWide(wanted, settings: settings, timeout: max(timeout, wanted.read ?? timeout))
    }

    /// This transport with `settings` in place of its own. A process-wide transport switches to
    /// the process-wide client configured so; on a client of your own, the TLS configuration goes
    /// with each request, and what only a client's configuration can hold — pins, a proxy,
    /// HTTP/1.1 only — throws.
    package func configured(_ settings: HTTPClientSettings) throws -> HTTPClientTransport {
        guard let current = processWideTimeout else {
            if let refusal = settings.refusalOnClientOfYourOwn { throw HTTPClientTLSSettingsError(message: refusal) }
            return HTTPClientTransport(client: client, timeout: timeout, processWideTimeout: nil, settings: settings)
        }
        return Self.processWide(current, settings: settings, timeout: timeout)
    }

    /// The transport on the process-wide client with `timeouts` and `settings`.
    private static func processWide(_ timeouts: HTTPClient.Configuration.Timeout, settings: HTTPClientSettings?, timeout: TimeAmount) -> HTTPClientTransport {
        let client = ProcessWideClients.client(timeouts, settings)
        let direct = settings.flatMap { $0.proxy == nil || $0.excludedHosts.isEmpty ? nil : ProcessWideClients.client(timeouts, $0.withoutProxy) }
        return HTTPClientTransport(client: client, timeout: timeout, processWideTimeout: timeouts, settings: settings, direct: direct)
    }

    static func nanoseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return seconds.multipliedReportingOverflow(by: 1_000_000_000).overflow
            ? .max : seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }

    /// Sends `request` through the client, header names as written and cookies joined into one
    /// `Cookie` header; bodies up to 256 KiB travel as one buffer, larger ones stream, and deadlines
    /// throw an error that presents itself as `NSURLErrorTimedOut`, as URLSession's do.
    public func send(
        _ request: HTTPRequest,
        body: HTTPBody?,
        baseURL: URL,
        operationID: String
    ) async throws -> (HTTPResponse, HTTPBody?) {
        let (status, headers, received) = try await exchange(request, body: body.map { .stream($0) }, baseURL: baseURL, wholeUpTo: Self.bufferedLimit)
        return (HTTPResponse(status: status, headerFields: Self.httpFields(headers)), received.httpBody)
    }

    /// Sends `head` as ``send(_:body:baseURL:operationID:)`` does, but hands a body of at most
    /// `limit` bytes (and 256 KiB) over as `Data`, read whole, without wrapping it in an
    /// `HTTPBody` that the caller would read back into `Data`. A longer body, or one of unknown
    /// length, comes as a stream. The head's fields stay as AsyncHTTPClient received them until
    /// first read: the response comes in the pipeline's own shapes.
    package nonisolated(nonsending) func sendReadingWhole(
        _ head: HTTPRequest,
        payload: RequestPayload?,
        baseURL: URL,
        limit: Int
    ) async throws -> (ResponseHead, ReceivedBody) {
        let (status, headers, received) = try await exchange(head, body: payload, baseURL: baseURL, wholeUpTo: min(Self.bufferedLimit, Int64(limit)))
        return (ResponseHead(status: status, fields: ReceivedFields(headers)), received)
    }

    /// The exchange behind both ways of sending: a response body of known length up to
    /// `wholeUpTo` bytes is read at once into one buffer. The conversions on either side are
    /// synchronous functions of their own, so that what they make lives on the thread's stack
    /// rather than in this async frame.
    @inline(__always)  // into both ways of sending: one call frame fewer per request
    private nonisolated(nonsending) func exchange(
        _ request: HTTPRequest, body: RequestPayload?, baseURL: URL, wholeUpTo: Int64
    ) async throws -> (HTTPResponse.Status, HTTPHeaders, ReceivedBody) {
        let incoming = try await execute(request, body: body, baseURL: baseURL)
        let (status, length) = Self.head(of: incoming)
        switch request.method {
        case .head, .connect:
            return (status, incoming.headers, .stream(nil))
        default:
            if let length, length <= wholeUpTo {
                // A small body is read at once into one buffer rather than chunk by chunk, and
                // copied from the buffer's bytes: `Data(_:)` of the buffer's view would box the
                // view for a dynamic cast first (one allocation more per response).
                do {
                    let buffer = try await incoming.body.collect(upTo: Int(length))
                    return (status, incoming.headers, .whole(buffer.withUnsafeReadableBytes { Data($0) }))
                } catch {
                    throw Self.classify(error)
                }
            }
            let body = HTTPBody(ClassifiedHTTPClientBody(base: incoming.body), length: length.map { .known($0) } ?? .unknown, iterationBehavior: .single)
            return (status, incoming.headers, .stream(body))
        }
    }

    /// Sends `request` with `body` through the client, up to the response's head. A function of
    /// its own: AsyncHTTPClient's request, some 350 bytes, lives in this frame only, not beside
    /// the response while its body is read.
    @inline(never)
    private nonisolated(nonsending) func execute(_ request: HTTPRequest, body: RequestPayload?, baseURL: URL) async throws -> HTTPClientResponse {
        let converted = try await Self.body(body)
        let outgoing = outgoing(request, baseURL: baseURL, body: converted)
        do {
            return try await dispatch(outgoing, baseURL: baseURL)
        } catch {
            guard let why = Self.connectionResend(after: error, method: request.method, body: body) else {
                throw await failure(error, baseURL: baseURL)
            }
            do {
                return try await resend(outgoing, method: request.method, body: body, baseURL: baseURL, because: why)
            } catch let refused as HTTPClientError where refused == .alreadyShutdown {
                // The client was shut down: what ended the request was that, not the connection.
                throw await failure(error, baseURL: baseURL)
            }
        }
    }

    /// Sends `outgoing` once more, after the connection it met closed before any answer
    /// (``connectionResend(after:method:body:)``): the pool has dropped that connection, or is
    /// about to. Again, up to ``connectionSendLimit`` sends in all, only while each send meets a
    /// closing connection before the request is written.
    @inline(never)
    private nonisolated(nonsending) func resend(
        _ outgoing: HTTPClientRequest, method: HTTPRequest.Method, body: RequestPayload?, baseURL: URL, because first: ConnectionResend
    ) async throws -> HTTPClientResponse {
        var why = first
        var sends = 1
        while true {
            ConnectionResends.report?(why.reason)
            sends += 1
            do {
                return try await dispatch(outgoing, baseURL: baseURL)
            } catch {
                guard sends < Self.connectionSendLimit,
                      let next = Self.connectionResend(after: error, method: method, body: body), next.unwritten
                else { throw await failure(error, baseURL: baseURL) }
                why = next
            }
        }
    }

    /// Hands `outgoing` to the client: as it is, or as the connection settings say.
    @inline(__always)
    private nonisolated(nonsending) func dispatch(_ outgoing: HTTPClientRequest, baseURL: URL) async throws -> HTTPClientResponse {
        guard let configured else { return try await client.execute(outgoing, timeout: timeout) }
        return try await execute(outgoing, configured, baseURL: baseURL)
    }

    /// What `execute` throws for `error`: a named TLS failure, or the error classified.
    private func failure(_ error: any Error, baseURL: URL) async -> any Error {
        if let failure = await Self.tlsFailure(error, url: baseURL, settings: configured?.settings) { return failure }
        return Self.classify(error)
    }

    /// Sends `outgoing` as `configured` says: its TLS configuration with the request on a client
    /// of your own, and directly rather than through the proxy for a host it excludes.
    @inline(never)
    private nonisolated(nonsending) func execute(_ outgoing: HTTPClientRequest, _ configured: Configured, baseURL: URL) async throws -> HTTPClientResponse {
        var outgoing = outgoing
        if processWideTimeout == nil, let tls = configured.settings.tls { outgoing.tlsConfiguration = tls.configuration }
        let bypass = configured.direct.flatMap { direct in configured.settings.bypassesProxy(baseURL.host ?? "") ? direct : nil }
        return try await (bypass ?? client).execute(outgoing, timeout: timeout)
    }
}

extension HTTPClientTransport: WholeBodyTransport {}
