public import AsyncHTTPClient
import Courier
public import Foundation
public import HTTPTypes
public import NIOCore
import NIOHTTP1
public import OpenAPIRuntime

/// A `ClientTransport` on AsyncHTTPClient that streams request and response bodies.
///
/// It exists beside `OpenAPIAsyncHTTPClient.AsyncHTTPClientTransport` because that transport
/// lower-cases every request header name and keeps only the last of repeated response headers
/// (two `Set-Cookie` headers arrive as one); `TransportDefectTests` shows both. This one sends
/// names as written and keeps every response header.
public struct HTTPClientTransport: ClientTransport {
    /// The client requests go through.
    public let client: HTTPClient
    /// The deadline for each request, from start to the end of the response head.
    public var timeout: TimeAmount

    /// A transport over `client`, which you keep and shut down.
    public init(client: HTTPClient, timeout: TimeAmount = .minutes(1)) {
        self.client = client
        self.timeout = timeout
    }

    public func send(
        _ request: HTTPRequest,
        body: HTTPBody?,
        baseURL: URL,
        operationID: String
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var outgoing = HTTPClientRequest(url: baseURL.absoluteString + (request.path ?? "/"))
        outgoing.method = HTTPMethod(rawValue: request.method.rawValue)
        outgoing.headers.reserveCapacity(request.headerFields.count)
        for field in request.headerFields {
            outgoing.headers.add(name: field.name.rawName, value: field.value)
        }
        if let body {
            let length: HTTPClientRequest.Body.Length =
                switch body.length {
                case .known(let count): .known(count)
                case .unknown: .unknown
                }
            outgoing.body = .stream(body.map { ByteBuffer(bytes: $0) }, length: length)
        }
        let incoming: HTTPClientResponse
        do {
            incoming = try await client.execute(outgoing, timeout: timeout)
        } catch let error as HTTPClientError {
            // The same kinds as on URLSession: cancelled, timed out, or a transport failure.
            switch error {
            case .cancelled: throw CancellationError()
            case .deadlineExceeded, .readTimeout, .connectTimeout, .writeTimeout, .getConnectionFromPoolTimeout:
                throw CourierError.timeout(error, operationID: operationID)
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
            let length: HTTPBody.Length = fields[.contentLength].flatMap(Int64.init).map { .known($0) } ?? .unknown
            return (head, HTTPBody(incoming.body.map { ArraySlice($0.readableBytesView) }, length: length, iterationBehavior: .single))
        }
    }
}
