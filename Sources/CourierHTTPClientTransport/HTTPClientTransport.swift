public import AsyncHTTPClient
public import Foundation
public import HTTPTypes
public import NIOCore
import NIOHTTP1
public import OpenAPIRuntime

/// A `ClientTransport` on AsyncHTTPClient that streams request and response bodies.
///
/// It exists beside `OpenAPIAsyncHTTPClient.AsyncHTTPClientTransport` because that transport
/// lower-cases every request header name and keeps only the last of repeated response headers
/// (two `Set-Cookie` headers arrive as one); `AsyncHTTPClientTests.shippedTransportDefects` shows
/// both. This one sends names as written and keeps every response header. On Linux it is
/// Courier's default transport, over ``shared``.
public struct HTTPClientTransport: ClientTransport {
    /// The client requests go through.
    public let client: HTTPClient
    /// The deadline for each request, from start to the end of the response head.
    public var timeout: TimeAmount

    /// Bodies of known length up to this size are sent and read as one buffer; longer ones, and
    /// those of unknown length, stream.
    static let bufferedLimit: Int64 = 256 * 1024

    /// The transport of `Provider(baseURL:)` on Linux: a process-wide client configured as
    /// `HTTPClient.Configuration.courierDefault`, never shut down, so nobody has to.
    public static let shared = HTTPClientTransport(client: HTTPClient(eventLoopGroupProvider: .singleton, configuration: .courierDefault))

    /// A transport over `client`, which you keep and shut down.
    public init(client: HTTPClient, timeout: TimeAmount = .minutes(1)) {
        self.client = client
        self.timeout = timeout
    }

    /// Sends `request` through the client, header names as written and cookies joined into one
    /// `Cookie` header; bodies up to 256 KiB travel as one buffer, larger ones stream, and deadlines
    /// throw ``HTTPClientTimeout``.
    public func send(
        _ request: HTTPRequest,
        body: HTTPBody?,
        baseURL: URL,
        operationID: String
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var outgoing = HTTPClientRequest(url: baseURL.absoluteString + (request.path ?? "/"))
        outgoing.method = HTTPMethod(rawValue: request.method.rawValue)
        outgoing.headers.reserveCapacity(request.headerFields.count)
        var cookies: [String] = []
        for field in request.headerFields {
            // HTTPFields keeps cookie pairs as separate fields; HTTP/1.1 allows one Cookie header.
            if field.name == .cookie {
                cookies.append(field.value)
            } else {
                outgoing.headers.add(name: field.name.rawName, value: field.value)
            }
        }
        if !cookies.isEmpty { outgoing.headers.add(name: "Cookie", value: cookies.joined(separator: "; ")) }
        if let body {
            switch body.length {
            case .known(let count) where count <= Self.bufferedLimit:
                // Small bodies go as one buffer: AsyncHTTPClient's streaming path costs more than
                // the copy (measured in Benchmarks/, round trip POST).
                var buffer = ByteBuffer()
                buffer.reserveCapacity(Int(count))
                for try await chunk in body { buffer.writeBytes(chunk) }
                outgoing.body = .bytes(buffer)
            case .known(let count):
                outgoing.body = .stream(body.map { ByteBuffer(bytes: $0) }, length: .known(count))
            case .unknown:
                outgoing.body = .stream(body.map { ByteBuffer(bytes: $0) }, length: .unknown)
            }
        }
        let incoming: HTTPClientResponse
        do {
            incoming = try await client.execute(outgoing, timeout: timeout)
        } catch let error as HTTPClientError {
            // The same kinds as on URLSession: cancelled, timed out, or a transport failure.
            switch error {
            case .cancelled: throw CancellationError()
            case .deadlineExceeded, .readTimeout, .connectTimeout, .writeTimeout, .getConnectionFromPoolTimeout:
                throw HTTPClientTimeout(error: error)
            default: throw error
            }
        }

        var fields = HTTPFields()
        fields.reserveCapacity(incoming.headers.count)
        for (name, value) in incoming.headers {
            // NIO has already checked the names; one that HTTPTypes refuses is dropped, not fatal.
            guard let fieldName = HTTPField.Name(name) else { continue }
            fields.append(HTTPField(name: fieldName, value: value))
        }
        let head = HTTPResponse(status: .init(code: Int(incoming.status.code), reasonPhrase: incoming.status.reasonPhrase), headerFields: fields)
        switch request.method {
        case .head, .connect:
            return (head, nil)
        default:
            let length = fields[.contentLength].flatMap(Int64.init)
            if let length, length <= Self.bufferedLimit {
                // A small body is read at once into one buffer rather than chunk by chunk.
                let buffer = try await incoming.body.collect(upTo: Int(length))
                return (head, HTTPBody(buffer.readableBytesView))
            }
            return (
                head,
                HTTPBody(incoming.body.map { ArraySlice($0.readableBytesView) }, length: length.map { .known($0) } ?? .unknown, iterationBehavior: .single)
            )
        }
    }
}

/// An AsyncHTTPClient deadline that passed. It presents itself as `NSURLErrorTimedOut`, so that
/// Courier reports it as a timeout exactly as it does URLSession's.
public struct HTTPClientTimeout: CustomNSError, CustomStringConvertible {
    /// The client's error: a deadline, a read, connect or write timeout, or no connection in time.
    public let error: HTTPClientError

    /// `NSURLErrorDomain`.
    public static var errorDomain: String { NSURLErrorDomain }
    /// `NSURLErrorTimedOut`.
    public var errorCode: Int { NSURLErrorTimedOut }
    /// What timed out.
    public var description: String { "AsyncHTTPClient: \(error)" }
}
