public import AsyncHTTPClient
public import Foundation
public import HTTPTypes
public import NIOCore
import NIOConcurrencyHelpers
import NIOHTTP1
import NIOPosix
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

    /// Bodies of known length up to this size are sent and read as one buffer; longer ones, and
    /// those of unknown length, stream.
    static let bufferedLimit: Int64 = 256 * 1024

    /// The transport of `Provider(baseURL:)` on Linux: a process-wide client configured as
    /// `HTTPClient.Configuration.courierDefault`, never shut down, so nobody has to.
    public static let shared = HTTPClientTransport(
        client: HTTPClient(eventLoopGroupProvider: .singleton, configuration: .courierDefault),
        processWideTimeout: HTTPClient.Configuration.courierDefault.timeout
    )

    /// For a transport on one of the process-wide clients, the timeouts its client was made
    /// with; ``bounded(connect:read:)`` may swap that client for another. `nil` for a client of
    /// your own.
    package let processWideTimeout: HTTPClient.Configuration.Timeout?

    /// A transport over `client`, which you keep and shut down; `timeout` is the deadline for each
    /// request, from start to the end of the response head.
    public init(client: HTTPClient, timeout: TimeAmount = .minutes(1)) {
        self.init(client: client, timeout: timeout, processWideTimeout: nil)
    }

    private init(client: HTTPClient, timeout: TimeAmount = .minutes(1), processWideTimeout: HTTPClient.Configuration.Timeout?) {
        self.client = client
        self.timeout = timeout
        self.processWideTimeout = processWideTimeout
    }

    /// The process-wide clients other than ``shared``'s, one per pair of connect and read
    /// timeouts asked for; like it, never shut down.
    private static let boundedClients = NIOLockedValueBox<[TimeoutKey: HTTPClient]>([:])

    private struct TimeoutKey: Hashable {
        var connect: Int64?
        var read: Int64?
        init(_ timeout: HTTPClient.Configuration.Timeout) {
            connect = timeout.connect?.nanoseconds
            read = timeout.read?.nanoseconds
        }
    }

    /// This transport with `connect` and `read` as its client's timeouts, where given. A
    /// process-wide transport switches to the process-wide client configured so (made on first
    /// use); a client of your own keeps its configuration, so this transport is returned as it is.
    package func bounded(connect: Duration?, read: Duration?) -> HTTPClientTransport {
        guard let current = processWideTimeout else { return self }
        var wanted = current
        if let connect { wanted.connect = TimeAmount.nanoseconds(Self.nanoseconds(connect)) }
        if let read { wanted.read = TimeAmount.nanoseconds(Self.nanoseconds(read)) }
        let key = TimeoutKey(wanted)
        guard key != TimeoutKey(current) else { return self }
        let client = Self.boundedClients.withLockedValue { clients in
            if let client = clients[key] { return client }
            var configuration = HTTPClient.Configuration.courierDefault
            configuration.timeout = wanted
            let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
            clients[key] = client
            return client
        }
        return HTTPClientTransport(client: client, timeout: max(timeout, wanted.read ?? timeout), processWideTimeout: wanted)
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
        let (head, payload) = try await exchange(request, body: body.map { .stream($0) }, baseURL: baseURL, wholeUpTo: Self.bufferedLimit)
        switch payload {
        case .none: return (head, nil)
        case .whole(let buffer): return (head, HTTPBody(buffer.readableBytesView))
        case .stream(let body): return (head, body)
        }
    }

    /// Sends `request` as ``send(_:body:baseURL:operationID:)`` does, but hands a body of at most
    /// `limit` bytes (and 256 KiB) over as `Data`, read whole, without wrapping it in an
    /// `HTTPBody` that the caller would read back into `Data`. A longer body, or one of unknown
    /// length, comes as a stream.
    package nonisolated(nonsending) func sendReadingWhole(
        _ request: HTTPRequest,
        body: OutgoingBody?,
        baseURL: URL,
        limit: Int
    ) async throws -> (HTTPResponse, WholeOrStreamed) {
        let (head, payload) = try await exchange(request, body: body, baseURL: baseURL, wholeUpTo: min(Self.bufferedLimit, Int64(limit)))
        switch payload {
        case .none: return (head, .stream(nil))
        // Copied from the buffer's bytes: `Data(_:)` of the buffer's view would box the view for a
        // dynamic cast first (one allocation more per response).
        case .whole(let buffer): return (head, .whole(buffer.withUnsafeReadableBytes { Data($0) }))
        case .stream(let body): return (head, .stream(body))
        }
    }

    /// A request body: bytes already in memory, or a stream.
    package enum OutgoingBody: Sendable {
        case bytes(Data)
        case stream(HTTPBody)
    }

    /// A response body read whole, or one still to be read.
    package enum WholeOrStreamed: Sendable {
        case whole(Data)
        case stream(HTTPBody?)
    }

    private enum Payload {
        case none
        case whole(ByteBuffer)
        case stream(HTTPBody)
    }

    /// The field name `name` as received, as `HTTPField.Name(_:)` makes it, without lower-casing
    /// a copy where it need not: the names most responses carry, spelled as servers commonly
    /// spell them, are HTTPTypes' own constants, and a name already in lower case is only checked.
    static func fieldName(_ name: String) -> HTTPField.Name? {
        switch name {
        case "Content-Type": return .contentType
        case "Content-Length": return .contentLength
        case "Date": return .date
        case "Server": return .server
        case "Connection": return .connection
        case "Cache-Control": return .cacheControl
        case "ETag": return .eTag
        case "Last-Modified": return .lastModified
        case "Location": return .location
        case "Set-Cookie": return .setCookie
        case "Vary": return .vary
        case "Content-Encoding": return .contentEncoding
        case "Transfer-Encoding": return .transferEncoding
        default:
            if name.utf8.first != UInt8(ascii: ":"), let parsed = HTTPField.Name(parsed: name) { return parsed }
            return HTTPField.Name(name)
        }
    }

    /// `method` as NIO has it: the common ones without parsing their names again.
    static func method(_ method: HTTPRequest.Method) -> HTTPMethod {
        switch method {
        case .get: .GET
        case .post: .POST
        case .put: .PUT
        case .delete: .DELETE
        case .patch: .PATCH
        default: HTTPMethod(rawValue: method.rawValue)
        }
    }

    /// `status` as HTTPTypes has it. NIO gives the common statuses their standard reason phrase
    /// whatever the server sent, so those are HTTPTypes' constants, whose phrases are the same and
    /// need no checking; any other is checked as `HTTPResponse.Status(code:reasonPhrase:)` does.
    static func status(_ status: HTTPResponseStatus) -> HTTPResponse.Status {
        switch status {
        case .ok: .ok
        case .created: .created
        case .noContent: .noContent
        case .notModified: .notModified
        default: HTTPResponse.Status(code: Int(status.code), reasonPhrase: status.reasonPhrase)
        }
    }

    /// The exchange behind both ways of sending: a response body of known length up to
    /// `wholeUpTo` bytes is read at once into one buffer. The conversions on either side are
    /// synchronous functions of their own, so that what they make lives on the thread's stack
    /// rather than in this async frame.
    @inline(__always)  // into both ways of sending: one call frame fewer per request
    private nonisolated(nonsending) func exchange(_ request: HTTPRequest, body: OutgoingBody?, baseURL: URL, wholeUpTo: Int64) async throws -> (HTTPResponse, Payload) {
        let incoming = try await execute(request, body: body, baseURL: baseURL)
        let (head, length) = Self.head(of: incoming)
        switch request.method {
        case .head, .connect:
            return (head, .none)
        default:
            if let length, length <= wholeUpTo {
                // A small body is read at once into one buffer rather than chunk by chunk.
                do {
                    return (head, .whole(try await incoming.body.collect(upTo: Int(length))))
                } catch {
                    throw Self.classify(error)
                }
            }
            return (head, .stream(HTTPBody(ClassifiedHTTPClientBody(base: incoming.body), length: length.map { .known($0) } ?? .unknown, iterationBehavior: .single)))
        }
    }

    /// Sends `request` with `body` through the client, up to the response's head. A function of
    /// its own: AsyncHTTPClient's request, some 350 bytes, lives in this frame only, not beside
    /// the response while its body is read.
    @inline(never)
    private nonisolated(nonsending) func execute(_ request: HTTPRequest, body: OutgoingBody?, baseURL: URL) async throws -> HTTPClientResponse {
        // Small streamed bodies go as one buffer: AsyncHTTPClient's streaming path costs more
        // than the copy (measured in Benchmarks/, round trip POST).
        var collected: ByteBuffer?
        if case .stream(let body) = body, case .known(let count) = body.length, count <= Self.bufferedLimit {
            collected = try await Self.collect(body, count: count)
        }
        do {
            return try await client.execute(outgoing(request, baseURL: baseURL, body: body, collected: collected), timeout: timeout)
        } catch {
            throw Self.classify(error)
        }
    }

    /// `request` as AsyncHTTPClient takes it: header names as written, cookies joined into one
    /// `Cookie` header, a tracing client's propagation fields left to it; `body` as one buffer
    /// when it was `collected`, or up to 256 KiB of bytes, and as a stream beyond.
    @inline(never)
    private func outgoing(_ request: HTTPRequest, baseURL: URL, body: OutgoingBody?, collected: ByteBuffer?) -> HTTPClientRequest {
        var outgoing = HTTPClientRequest(url: baseURL.absoluteString + (request.path ?? "/"))
        outgoing.method = Self.method(request.method)
        outgoing.headers.reserveCapacity(request.headerFields.count)
        var cookies: [String] = []
        for field in request.headerFields {
            switch field.name {
            case .cookie:
                // HTTPFields keeps cookie pairs as separate fields; HTTP/1.1 allows one Cookie
                // header.
                cookies.append(field.value)
            case .contentLength, .transferEncoding:
                // AsyncHTTPClient removes both and writes its own from the body it is given.
                continue
            default:
                outgoing.headers.add(name: field.name.rawName, value: field.value)
            }
        }
        if !cookies.isEmpty { outgoing.headers.add(name: "Cookie", value: cookies.joined(separator: "; ")) }
        if let tracer = client.tracer, let context = ServiceContext.current {
            // A client that traces adds its own span's propagation fields (beside any already
            // there): Courier's of the same names go, so that only the innermost span's are sent.
            var written = HTTPHeaders()
            tracer.inject(context, into: &written, using: HeaderInjector())
            for (name, _) in written { outgoing.headers.remove(name: name) }
        }
        switch body {
        case .none:
            break
        case .stream(let body):
            if let collected {
                outgoing.body = .bytes(collected)
            } else {
                outgoing.body = .stream(body.map { ByteBuffer(bytes: $0) }, length: body.length == .unknown ? .unknown : .known(Self.length(of: body)))
            }
        case .bytes(let data):
            outgoing.body = Self.body(data)
        }
        return outgoing
    }

    /// Bytes in memory as a request body: one buffer up to 256 KiB, a stream beyond.
    @inline(never)
    private static func body(_ data: Data) -> HTTPClientRequest.Body {
        guard data.count > bufferedLimit else { return .bytes(ByteBuffer(bytes: data)) }
        let body = HTTPBody(data)
        return .stream(body.map { ByteBuffer(bytes: $0) }, length: .known(Int64(data.count)))
    }

    /// The declared length of a body that has one.
    private static func length(of body: HTTPBody) -> Int64 {
        if case .known(let count) = body.length { return count }
        return 0
    }

    /// A small streamed body, read into one buffer.
    @inline(never)
    private static nonisolated(nonsending) func collect(_ body: HTTPBody, count: Int64) async throws -> ByteBuffer {
        var buffer = ByteBuffer()
        buffer.reserveCapacity(Int(count))
        for try await chunk in body { buffer.writeBytes(chunk) }
        return buffer
    }

    /// The response's head as HTTPTypes has it, and its first `Content-Length` as a number.
    @inline(never)
    private static func head(of incoming: HTTPClientResponse) -> (HTTPResponse, Int64?) {
        var fields = HTTPFields()
        fields.reserveCapacity(incoming.headers.count)
        // The first `Content-Length`, read on the way rather than looked up after in NIO's
        // headers, a second pass comparing every name without regard to case.
        var contentLength: String?
        for (name, value) in incoming.headers {
            // NIO has already checked the names; one that HTTPTypes refuses is dropped, not fatal.
            guard let fieldName = Self.fieldName(name) else { continue }
            if contentLength == nil, fieldName == .contentLength { contentLength = value }
            fields.append(HTTPField(name: fieldName, value: value))
        }
        return (HTTPResponse(status: Self.status(incoming.status), headerFields: fields), contentLength.flatMap { Int64($0) })
    }
}
