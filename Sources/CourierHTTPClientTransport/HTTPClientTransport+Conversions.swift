package import CourierWire
import AsyncHTTPClient
import Foundation
package import HTTPTypes
import NIOCore
import NIOHTTP1
import OpenAPIRuntime
#if os(Linux)
import Synchronization
#else
import NIOConcurrencyHelpers
#endif
import Tracing

/// The conversions between HTTPTypes' messages and AsyncHTTPClient's, each synchronous and out of
/// line where the exchange calls it, so that what it makes lives on the thread's stack rather than
/// in an async frame.
extension HTTPClientTransport {
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

    /// `request` as AsyncHTTPClient takes it: header names as written, cookies joined into one
    /// `Cookie` header, a tracing client's propagation fields left to it.
    @inline(never)
    func outgoing(_ request: HTTPRequest, baseURL: URL, body: HTTPClientRequest.Body?) -> HTTPClientRequest {
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
        if clientTraces, let tracer = client.tracer, let context = ServiceContext.current {
            // A client that traces adds its own span's propagation fields (beside any already
            // there): Courier's of the same names go, so that only the innermost span's are sent.
            var written = HTTPHeaders()
            tracer.inject(context, into: &written, using: HeaderInjector())
            for (name, _) in written { outgoing.headers.remove(name: name) }
        }
        outgoing.body = body
        return outgoing
    }

    /// Bytes in memory as a request body: one buffer up to 256 KiB, a stream beyond.
    @inline(never)
    static func body(_ data: Data) -> HTTPClientRequest.Body {
        guard data.count > bufferedLimit else { return .bytes(ByteBuffer(bytes: data)) }
        let body = HTTPBody(data)
        return .stream(body.map { ByteBuffer(bytes: $0) }, length: .known(Int64(data.count)))
    }

    /// A request body as AsyncHTTPClient takes it: bytes in memory as the synchronous `body(_:)`
    /// makes them; a stream of known length up to 256 KiB read into one buffer — AsyncHTTPClient's
    /// streaming path costs more than the copy (measured in Benchmarks/, round trip POST) — and
    /// any other stream as a stream of its length.
    @inline(never)
    static nonisolated(nonsending) func body(_ outgoing: RequestPayload?) async throws -> HTTPClientRequest.Body? {
        guard case .stream(let body) = outgoing else {
            guard case .bytes(let data) = outgoing else { return nil }
            return Self.body(data)
        }
        switch body.length {
        case .known(let count) where count <= bufferedLimit:
            var buffer = ByteBuffer()
            buffer.reserveCapacity(Int(count))
            for try await chunk in body { buffer.writeBytes(chunk) }
            return .bytes(buffer)
        case .known(let count):
            return .stream(body.map { ByteBuffer(bytes: $0) }, length: .known(count))
        case .unknown:
            return .stream(body.map { ByteBuffer(bytes: $0) }, length: .unknown)
        }
    }

    /// The response's status as HTTPTypes has it, and its first `Content-Length` as a number; the
    /// fields are left as received.
    @inline(never)
    static func head(of incoming: HTTPClientResponse) -> (HTTPResponse.Status, Int64?) {
        var contentLength: Int64?
        for (name, value) in incoming.headers where isContentLength(name) {
            contentLength = Int64(value)
            break
        }
        return (Self.status(incoming.status), contentLength)
    }

    /// Whether `name` is `Content-Length` in any case, compared byte by byte without a lower-cased
    /// copy.
    package static func isContentLength(_ name: String) -> Bool {
        var name = name
        return name.withUTF8 { bytes in
            guard bytes.count == 14 else { return false }
            for (byte, expected) in zip(bytes, "content-length".utf8) {
                // `| 0x20` lower-cases a letter; the '-' is compared as it is (a carriage return,
                // 0x0D, would pass the same test).
                let folded = expected == UInt8(ascii: "-") ? byte : byte | 0x20
                if folded != expected { return false }
            }
            return true
        }
    }

    /// NIO's header fields as HTTPTypes has them: names as received, a name that HTTPTypes refuses
    /// dropped (NIO has already checked them), values checked as `HTTPField` checks them.
    static func httpFields(_ headers: HTTPHeaders) -> HTTPFields {
        var fields = HTTPFields()
        fields.reserveCapacity(headers.count)
        for (name, value) in headers {
            guard let fieldName = Self.fieldName(name) else { continue }
            fields.append(HTTPField(name: fieldName, value: value))
        }
        return fields
    }
}

/// A response's header fields, kept as AsyncHTTPClient received them until first read, then made
/// into HTTPTypes' form once and kept. A call that decodes a JSON body reads the status alone, so
/// it never pays for building each field.
package final class ReceivedFields: DeferredFields {
    private let headers: HTTPHeaders
    #if os(Linux)
    /// Set by the first read; on Linux a lock of one word, with nothing to set up or tear down.
    private let converted = Mutex<HTTPFields?>(nil)
    #else
    /// Set by the first read (`Mutex` needs macOS 15 and iOS 18; Courier supports earlier ones).
    private let converted = NIOLockedValueBox<HTTPFields?>(nil)
    #endif

    init(_ headers: HTTPHeaders) {
        self.headers = headers
    }

    /// Whether the fields have been converted: a read of ``httpFields`` has happened.
    package var isConverted: Bool {
        withConverted { $0 != nil }
    }

    /// The fields in HTTPTypes' form, converted on the first read.
    package var httpFields: HTTPFields {
        withConverted { converted in
            if let converted { return converted }
            let fields = HTTPClientTransport.httpFields(headers)
            converted = fields
            return fields
        }
    }

    private func withConverted<Result>(_ body: (inout HTTPFields?) -> Result) -> Result {
        #if os(Linux)
        converted.withLock { body(&$0) }
        #else
        converted.withLockedValue { body(&$0) }
        #endif
    }
}
