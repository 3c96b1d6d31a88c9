import Foundation
import Hummingbird
import HummingbirdCore
import HummingbirdHTTP2
import HummingbirdTLS
import Logging
import NIOCore

/// The server every round-trip benchmark talks to, in the benchmark's own process on 127.0.0.1;
/// PipelineProfile starts it too with `PROFILE_SERVER=inprocess`.
public enum BenchmarkServer {
    /// About 200 bytes of JSON, the response every GET and POST returns.
    public static let userJSON = #"{"id":42,"login":"ada","name":"Ada Lovelace","email":"ada@example.com","company":"Analytical Engines","location":"London","bio":"First programmer","followers":1815,"following":1852,"isAdmin":false}"#

    /// Plain HTTP/1.1, or over TLS with ``BenchmarkTLS``'s certificate: HTTP/1.1 only, or HTTP/2
    /// and HTTP/1.1 offered by ALPN.
    public enum Kind: Sendable { case plain, tlsHTTP1, tlsHTTP2 }

    public static func start(_ kind: Kind = .plain) async throws -> Int {
        let router = Router()
        router.get("/users/:id") { _, _ in
            Response(status: .ok, headers: [.contentType: "application/json"], body: ResponseBody(byteBuffer: ByteBuffer(string: userJSON)))
        }
        // The same user, reusable for an hour: what the cache-hit benchmark reads.
        router.get("/cached/users/:id") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "application/json", .cacheControl: "max-age=3600"],
                body: ResponseBody(byteBuffer: ByteBuffer(string: userJSON)))
        }
        router.post("/users") { request, _ in
            _ = try await request.body.collect(upTo: 1 << 20)
            return Response(status: .ok, headers: [.contentType: "application/json"], body: ResponseBody(byteBuffer: ByteBuffer(string: userJSON)))
        }
        router.post("/upload") { request, _ in
            var count = 0
            for try await buffer in request.body { count += buffer.readableBytes }
            return Response(status: .ok, headers: [.contentType: "text/plain"], body: ResponseBody(byteBuffer: ByteBuffer(string: "\(count)")))
        }
        router.get("/download/:count") { _, context in
            let count = context.parameters.get("count", as: Int.self) ?? 0
            let chunk = ByteBuffer(repeating: 0x61, count: 64 * 1024)
            return Response(
                status: .ok,
                headers: [.contentType: "application/octet-stream"],
                body: ResponseBody(contentLength: count) { writer in
                    var sent = 0
                    while sent < count {
                        let size = min(chunk.readableBytes, count - sent)
                        try await writer.write(chunk.getSlice(at: 0, length: size) ?? chunk)
                        sent += size
                    }
                    try await writer.finish(nil)
                }
            )
        }
        router.get("/events/:count") { _, context in
            // `count` Server-Sent Events `data: {"n":…}`, written 256 to a chunk.
            let count = context.parameters.get("count", as: Int.self) ?? 0
            return Response(
                status: .ok,
                headers: [.contentType: "text/event-stream"],
                body: ResponseBody { writer in
                    var index = 0
                    while index < count {
                        var chunk = ByteBuffer()
                        for n in index..<min(index + 256, count) { chunk.writeString("id: \(n)\ndata: {\"n\":\(n)}\n\n") }
                        index += 256
                        try await writer.write(chunk)
                    }
                    try await writer.finish(nil)
                }
            )
        }
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        var logger = Logger(label: "benchmark-server")
        logger.logLevel = .error
        let server: HTTPServerBuilder =
            switch kind {
            case .plain: .http1()
            case .tlsHTTP1: try .tls(.http1(), tlsConfiguration: BenchmarkTLS.serverConfiguration())
            case .tlsHTTP2: try .http2Upgrade(tlsConfiguration: BenchmarkTLS.serverConfiguration())
            }
        let app = Application(
            router: router,
            server: server,
            configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in
                continuation.yield(channel.localAddress?.port ?? 0)
                continuation.finish()
            },
            logger: logger
        )
        Task.detached { try await app.run() }
        for await port in ports where port != 0 { return port }
        throw HTTPError(.internalServerError, message: "the benchmark server did not start")
    }
}
