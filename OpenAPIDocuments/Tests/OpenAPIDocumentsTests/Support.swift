import Courier
import Foundation
import Hummingbird
import NIOCore
import Testing

/// A server on 127.0.0.1 at a port of its own, answering as `configure` routes, and recording
/// what it received.
func startServer(_ configure: @Sendable (Router<BasicRequestContext>) -> Void) async throws -> Int {
    let router = Router()
    configure(router)
    let (ports, continuation) = AsyncStream<Int>.makeStream()
    let app = Application(
        router: router,
        configuration: .init(address: .hostname("127.0.0.1", port: 0)),
        onServerRunning: { channel in
            continuation.yield(channel.localAddress?.port ?? 0)
            continuation.finish()
        }
    )
    Task.detached { try await app.run() }
    for await port in ports where port != 0 { return port }
    throw HTTPError(.internalServerError, message: "the test server did not start")
}

/// The payload `name` (Payloads/`name`.json) as a JSON response.
func payload(_ name: String) throws -> Response {
    guard let url = Bundle.module.url(forResource: "Payloads/\(name)", withExtension: "json") else {
        throw HTTPError(.internalServerError, message: "no payload \(name)")
    }
    return Response(status: .ok, headers: [.contentType: "application/json"], body: ResponseBody(byteBuffer: ByteBuffer(bytes: try Data(contentsOf: url))))
}

/// The transports a call goes over: Courier's default (AsyncHTTPClient on Linux) and URLSession.
enum Transport: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case `default`, urlSession
    var testDescription: String { rawValue }

    func provider(port: Int, path: String = "") -> Provider {
        var provider = Provider(baseURL: "http://127.0.0.1:\(port)\(path)")
        if self == .urlSession { provider.transport = Provider.urlSessionTransport }
        return provider
    }
}

/// What a test server received, for the test to read.
final class Received: @unchecked Sendable {
    private let lock = NSLock()
    private var recorded: [String] = []
    func record(_ line: String) { lock.withLock { recorded.append(line) } }
    var lines: [String] { lock.withLock { recorded } }
}
