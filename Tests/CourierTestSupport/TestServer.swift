public import Courier
public import Foundation
public import HTTPTypes
import Hummingbird
import Logging
import NIOCore

/// What the test server saw of a request, sent back as JSON by every `/echo…` path.
public struct Echo: Codable, Sendable {
    public var method: String
    /// The request target exactly as it arrived: path and query, still percent-encoded.
    public var target: String
    public var path: String
    public var query: String?
    /// Header names lower-cased, in arrival order.
    public var headers: [[String]]
    /// Header names exactly as they arrived, in arrival order.
    public var rawHeaderNames: [String]
    public var body: String
    public var bodyIsEmpty: Bool

    public init(
        method: String, target: String, path: String, query: String?, headers: [[String]], rawHeaderNames: [String],
        body: String, bodyIsEmpty: Bool
    ) {
        self.method = method
        self.target = target
        self.path = path
        self.query = query
        self.headers = headers
        self.rawHeaderNames = rawHeaderNames
        self.body = body
        self.bodyIsEmpty = bodyIsEmpty
    }

    public func header(_ name: String) -> String? {
        headers.first { $0[0] == name.lowercased() }?[1]
    }

    public func headerValues(_ name: String) -> [String] {
        headers.filter { $0[0] == name.lowercased() }.map { $0[1] }
    }

    public var bodyData: Data { Data(base64Encoded: body) ?? Data() }
    public var bodyText: String { String(decoding: bodyData, as: UTF8.self) }
}

public struct TestUser: Codable, Equatable, Sendable {
    public var id: Int
    public var name: String
    public init(id: Int, name: String) {
        self.id = id
        self.name = name
    }
}

/// Answers every path under `/echo` with an ``Echo`` of the request.
struct EchoMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let target = request.head.path ?? "/"
        guard target.hasPrefix("/echo") || target.hasPrefix("/api/v1/echo") else {
            return try await next(request, context)
        }
        var request = request
        let buffer = try await request.collectBody(upTo: 16 * 1024 * 1024)
        let bytes = Data(buffer.readableBytesView)
        let query = target.firstIndex(of: "?").map { String(target[target.index(after: $0)...]) }
        let echo = Echo(
            method: request.method.rawValue,
            target: target,
            path: String(target.prefix { $0 != "?" }),
            query: query,
            headers: request.headers.map { [$0.name.canonicalName, $0.value] },
            rawHeaderNames: request.headers.map(\.name.rawName),
            body: bytes.base64EncodedString(),
            bodyIsEmpty: bytes.isEmpty
        )
        let data = try JSONEncoder().encode(echo)
        return Response(
            status: .ok,
            headers: [.contentType: "application/json"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: data))
        )
    }
}

/// One Hummingbird server on 127.0.0.1 with an OS-chosen port, started on first use and shared
/// by every test in the process.
public enum TestServer {
    private static let started = Task<Int, any Error> { try await start() }
    private static let startedOther = Task<Int, any Error> { try await start() }
    private static let startedIsolated = Task<Int, any Error> { try await start() }

    /// The server's port.
    public static func port() async throws -> Int { try await started.value }

    /// The port of a second, identical server: another origin, for redirect tests.
    public static func otherPort() async throws -> Int { try await startedOther.value }

    /// The port of a third, identical server that only the connection-counting test uses, so
    /// that no other test's request shares its connections.
    public static func isolatedPort() async throws -> Int { try await startedIsolated.value }

    /// `http://127.0.0.1:<port>` plus `path`.
    public static func baseURL(_ path: String = "") async throws -> String {
        "http://127.0.0.1:\(try await port())\(path)"
    }

    /// A provider against the server through the default (URLSession) transport.
    public static func provider(_ path: String = "", keyMapping: KeyMapping = .useDefaultKeys) async throws -> Provider {
        Provider(baseURL: try await baseURL(path), keyMapping: keyMapping)
    }

    static func json(_ text: String, status: HTTPResponse.Status = .ok) -> Response {
        Response(status: status, headers: [.contentType: "application/json"], body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }

    static func makeRouter() -> Router<TestContext> {
        let router = Router(context: TestContext.self)
        router.add(middleware: EchoMiddleware())
        router.get("/users/:id") { _, context in
            let id = context.parameters.get("id", as: Int.self) ?? 0
            return json(#"{"id":\#(id),"name":"Ada"}"#)
        }
        router.get("/snake") { _, _ in
            json(#"{"user_id":7,"display_name":"Ada Lovelace","is_admin":true}"#)
        }
        router.get("/status/:code") { _, context in
            let code = context.parameters.get("code", as: Int.self) ?? 500
            return json(#"{"error":"status \#(code)","code":\#(code)}"#, status: .init(code: code))
        }
        router.get("/protocol") { _, context in
            let seen = ConnectionSeen(http2: context.isHTTP2, connection: String(UInt(bitPattern: context.connection.hashValue), radix: 16))
            return Response(
                status: .ok,
                headers: [.contentType: "application/json"],
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: try JSONEncoder().encode(seen)))
            )
        }
        router.get("/empty") { _, _ in Response(status: .noContent) }
        router.get("/empty-ok") { _, _ in Response(status: .ok, headers: [.contentLength: "0"]) }
        router.get("/text") { _, _ in
            Response(status: .ok, headers: [.contentType: "text/plain; charset=utf-8"], body: ResponseBody(byteBuffer: ByteBuffer(string: "héllo")))
        }
        router.get("/latin1") { _, _ in
            Response(
                status: .ok,
                headers: [.contentType: "text/plain; charset=iso-8859-1"],
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: [0x63, 0x61, 0x66, 0xE9]))
            )
        }
        router.get("/bytes") { _, _ in
            Response(status: .ok, headers: [.contentType: "application/octet-stream"], body: ResponseBody(byteBuffer: ByteBuffer(bytes: [0, 1, 2, 255])))
        }
        router.get("/invalid-json") { _, _ in json(#"{"id":"seven","name":"Ada"}"#) }
        router.get("/big") { _, _ in
            Response(status: .ok, body: ResponseBody(byteBuffer: ByteBuffer(repeating: UInt8(ascii: "x"), count: 4096)))
        }
        router.get("/bytes/:count") { _, context in
            let count = context.parameters.get("count", as: Int.self) ?? 0
            return Response(
                status: .ok,
                headers: [.contentType: "application/octet-stream"],
                body: ResponseBody(contentLength: count) { writer in
                    var offset = 0
                    while offset < count {
                        let size = min(64 * 1024, count - offset)
                        try await writer.write(ByteBuffer(bytes: Pattern.slice(from: offset, count: size)))
                        offset += size
                    }
                    try await writer.finish(nil)
                }
            )
        }
        router.post("/digest") { request, _ in
            var digest = Pattern.Digest()
            for try await buffer in request.body {
                buffer.withUnsafeReadableBytes { digest.add($0) }
            }
            return json(#"{"count":\#(digest.count),"hash":"\#(digest.hash)"}"#)
        }
        router.get("/chunked") { _, _ in
            Response(
                status: .ok,
                headers: [.contentType: "text/plain"],
                body: ResponseBody { writer in
                    for index in 0..<5 {
                        try await writer.write(ByteBuffer(string: "chunk \(index);"))
                        try await Task.sleep(for: .milliseconds(5))
                    }
                    try await writer.finish(nil)
                }
            )
        }
        router.head("/head") { _, _ in
            Response(status: .ok, headers: [.contentLength: "1234", HTTPField.Name("X-Head")!: "yes"])
        }
        router.get("/cookies") { _, _ in
            var headers = HTTPFields()
            headers.append(HTTPField(name: .setCookie, value: "a=1; Path=/"))
            headers.append(HTTPField(name: .setCookie, value: "b=2; Path=/"))
            headers.append(HTTPField(name: HTTPField.Name("X-MiXeD-Response")!, value: "v"))
            return Response(status: .ok, headers: headers)
        }
        // A response for typed-response tests: the status asked for, headers and cookies, and
        // a success or error body to match.
        router.get("/typed/:status") { _, context in
            let code = context.parameters.get("status", as: Int.self) ?? 200
            var headers: HTTPFields = [
                .contentType: "application/json",
                HTTPField.Name("X-Total-Count")!: "42",
                HTTPField.Name("X-Rate-Remaining")!: "not-a-number",
                .lastModified: "Wed, 21 Oct 2026 07:28:00 GMT",
                HTTPField.Name("Link")!: "</typed/200?page=2>; rel=\"next\"",
            ]
            headers.append(HTTPField(name: .setCookie, value: "session=abc123; Path=/; HttpOnly"))
            headers.append(HTTPField(name: .setCookie, value: "theme=dark; Path=/; Expires=Wed, 21 Oct 2026 07:28:00 GMT; Secure"))
            let body: String
            switch code {
            case 204: return Response(status: .noContent, headers: headers)
            case 200..<400: body = #"{"id":\#(code),"name":"Ada"}"#
            default: body = #"{"message":"failed with \#(code)","code":\#(code)}"#
            }
            return Response(status: .init(code: code), headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: body)))
        }
        router.get("/xml") { request, _ in
            let accept = request.headers[.accept] ?? ""
            return Response(
                status: .ok,
                headers: [.contentType: "application/xml", HTTPField.Name("X-Accept-Seen")!: accept],
                body: ResponseBody(byteBuffer: ByteBuffer(string: "<?xml version=\"1.0\"?><Item><id>7</id><name>Ada &amp; Co</name></Item>"))
            )
        }
        router.get("/form-response") { _, _ in
            Response(
                status: .ok,
                headers: [.contentType: "application/x-www-form-urlencoded"],
                body: ResponseBody(byteBuffer: ByteBuffer(string: "user_name=Ada+Lovelace&age=36&tags[]=a&tags[]=b&address[city]=Z%C3%BCrich&admin=true"))
            )
        }
        router.get("/count") { _, _ in
            Response(status: .ok, headers: [.contentType: "text/plain"], body: ResponseBody(byteBuffer: ByteBuffer(string: " 42\n")))
        }
        router.get("/login") { _, _ in
            var headers = HTTPFields()
            headers.append(HTTPField(name: .setCookie, value: "session=s-1; Path=/; HttpOnly"))
            headers.append(HTTPField(name: .setCookie, value: "scoped=yes; Path=/echo/scoped"))
            headers.append(HTTPField(name: .setCookie, value: "secure=no; Path=/; Secure"))
            headers.append(HTTPField(name: .setCookie, value: "gone=x; Path=/; Max-Age=0"))
            return Response(status: .ok, headers: headers)
        }
        router.get("/secure-cookie") { _, _ in
            var headers = HTTPFields()
            headers.append(HTTPField(name: .setCookie, value: "secret=s1; Path=/; Secure"))
            headers.append(HTTPField(name: .setCookie, value: "plain=p1; Path=/"))
            return Response(status: .ok, headers: headers)
        }
        router.get("/logout") { _, _ in
            Response(status: .ok, headers: [.setCookie: "session=; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT"])
        }
        // Answers with the status in the path and `Location: <to>`.
        let redirect: @Sendable (Request, TestContext) async throws -> Response = { request, context in
            let code = context.parameters.get("code", as: Int.self) ?? 302
            let target = request.uri.queryParameters["to"].map(String.init) ?? "/echo/redirected"
            return Response(status: .init(code: code), headers: [.location: target])
        }
        router.get("/redirect/:code", use: redirect)
        router.post("/redirect/:code", use: redirect)
        // A head and the start of a body, then nothing for a minute.
        router.get("/stall-body") { _, _ in
            Response(
                status: .ok,
                headers: [.contentType: "application/octet-stream"],
                body: ResponseBody { writer in
                    try await writer.write(ByteBuffer(string: "start"))
                    try await Task.sleep(for: .seconds(60))
                    try await writer.finish(nil)
                }
            )
        }
        // A failing status with a 1 MiB body.
        router.get("/big-error") { _, _ in
            Response(status: .internalServerError, body: ResponseBody(byteBuffer: ByteBuffer(repeating: UInt8(ascii: "e"), count: 1 << 20)))
        }
        // A Basic challenge, as httpbin's `/status/401` sends one.
        router.get("/challenge") { _, _ in
            Response(status: .unauthorized, headers: [.wwwAuthenticate: "Basic realm=\"courier\""])
        }
        // The client's port: tells one connection from another.
        router.get("/connection") { _, context in
            json(#"{"port":\#(context.remoteAddress?.port ?? 0)}"#)
        }
        // A login answered by a redirect that sets the session cookie on the way.
        router.post("/login-redirect") { _, _ in
            var headers: HTTPFields = [.location: "/echo/home"]
            headers.append(HTTPField(name: .setCookie, value: "session=from-redirect; Path=/"))
            return Response(status: .found, headers: headers)
        }
        router.get("/loop") { _, _ in Response(status: .found, headers: [.location: "/loop"]) }
        BookshopRoutes.add(to: router)
        // Far longer than any test's bound on a timeout or a cancel that ends it, so that only
        // the timeout or the cancel can end the call, however slowly the machine runs.
        router.get("/slow") { _, _ in
            try await Task.sleep(for: .seconds(30))
            return json("{}")
        }
        return router
    }

    private static func start() async throws -> Int {
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        var logger = Logger(label: "courier-test-server")
        logger.logLevel = .error
        let app = Application(
            router: makeRouter(),
            configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in
                continuation.yield(channel.localAddress?.port ?? 0)
                continuation.finish()
            },
            logger: logger
        )
        Task.detached { try await app.run() }
        for await port in ports where port != 0 { return port }
        throw ServerDidNotStart()
    }
}

struct ServerDidNotStart: Error {}

/// Hummingbird's basic context plus the client's address, and the connection the request came
/// on: an HTTP/2 stream's channel is a child of its connection's, an HTTP/1 connection's channel
/// a child of the listening one.
struct TestContext: RequestContext, RemoteAddressRequestContext {
    var coreContext: CoreRequestContextStorage
    let remoteAddress: SocketAddress?
    /// Whether the request came as an HTTP/2 stream.
    let isHTTP2: Bool
    /// The connection's identity, the same for every request it carries.
    let connection: ObjectIdentifier

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
        isHTTP2 = source.channel.parent?.parent != nil
        connection = ObjectIdentifier(isHTTP2 ? source.channel.parent ?? source.channel : source.channel)
    }
}

/// What `/protocol` answers: the protocol and connection a request came on.
public struct ConnectionSeen: Codable, Sendable, Equatable {
    /// Whether the request came as an HTTP/2 stream.
    public var http2: Bool
    /// The connection's identity at the server, the same for every request it carried.
    public var connection: String
}

extension Provider {
    /// Sends `builder` to the test server's echo and decodes what the server saw.
    public func echo(_ builder: RequestBuilder) async throws -> Echo {
        try await send(Courier.Request(builder, receiving: .json(Echo.self)))
    }
}

/// Remembers what the server's echo saw, for tests whose endpoints return their own types.
public final class EchoRecorder: Sendable {
    private let seen = Locked<[Echo]>([])

    public init() {}

    /// Every request the server saw, in order.
    public var echoes: [Echo] { seen.withLock { $0 } }
    /// The last request the server saw.
    public var last: Echo? { echoes.last }

    func record(_ echo: Echo) { seen.withLock { $0.append(echo) } }
}

extension TestServer {
    /// A provider whose requests go to the server's echo (every path under `/echo`) and whose
    /// responses are replaced by `reply` with `status`, so that an endpoint returning any type
    /// can be checked against what the server really received.
    public static func echoing(
        reply: String = "{}",
        status: HTTPResponse.Status = .ok,
        keyMapping: KeyMapping = .useDefaultKeys
    ) async throws -> (Provider, EchoRecorder) {
        let recorder = EchoRecorder()
        let provider = try await TestServer.provider("/echo", keyMapping: keyMapping).intercept { req, next in
            let response = try await next(req)
            recorder.record(try JSONDecoder().decode(Echo.self, from: response.body ?? Data()))
            return Courier.Response(head: HTTPResponse(status: status, headerFields: [.contentType: "application/json"]), body: Data(reply.utf8), request: req)
        }
        return (provider, recorder)
    }
}

/// The bytes `/bytes/:count` sends and the digest `/digest` answers with, so that large bodies are
/// checked without echoing them.
public enum Pattern {
    /// Byte `index` of the pattern: the byte values 0…250 over and over.
    public static func byte(at index: Int) -> UInt8 { UInt8(index % 251) }

    /// Enough whole cycles to cut any chunk of up to 64 KiB from any starting point.
    private static let cycles: [UInt8] = (0..<(251 * 263)).map { UInt8($0 % 251) }

    /// `count` (at most 64 KiB) bytes of the pattern starting at `offset`.
    public static func slice(from offset: Int, count: Int) -> ArraySlice<UInt8> {
        let start = offset % 251
        return cycles[start..<(start + count)]
    }

    /// `count` bytes of the pattern.
    public static func data(count: Int) -> Data {
        var data = Data(capacity: count)
        var offset = 0
        while offset < count {
            let size = min(64 * 1024, count - offset)
            data.append(contentsOf: slice(from: offset, count: size))
            offset += size
        }
        return data
    }

    /// Byte count and a 64-bit FNV-1a hash.
    public struct Digest: Sendable {
        public private(set) var count = 0
        private var value: UInt64 = 0xcbf2_9ce4_8422_2325

        public init() {}

        public mutating func add(_ bytes: UnsafeRawBufferPointer) {
            for byte in bytes {
                value = (value ^ UInt64(byte)) &* 0x100_0000_01b3
            }
            count += bytes.count
        }

        public mutating func add(_ bytes: some Sequence<UInt8>) {
            for byte in bytes {
                value = (value ^ UInt64(byte)) &* 0x100_0000_01b3
                count += 1
            }
        }

        public var hash: String { String(value, radix: 16) }
    }
}
