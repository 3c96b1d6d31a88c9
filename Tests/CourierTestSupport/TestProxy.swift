import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// A small forward proxy on 127.0.0.1 for the proxy tests: HTTP `CONNECT` tunnels, or SOCKS5
/// without authentication. It records what it was asked, and
/// can demand Basic credentials, answering `407` without them.
public final class TestProxy: Sendable {
    /// What the proxy was asked, one entry per request or tunnel.
    public struct Seen: Sendable, Equatable {
        /// `CONNECT`, `GET`… or `SOCKS5`.
        public var method: String
        /// `host:port`: where the tunnel goes.
        public var target: String
        /// The `Proxy-Authorization` sent, if any.
        public var authorization: String?

        public init(method: String, target: String, authorization: String?) {
            self.method = method
            self.target = target
            self.authorization = authorization
        }
    }

    public enum Mode: Sendable { case http, socks5 }

    private let seen = NIOLockedValueBox<[Seen]>([])
    private let mode: Mode
    private let credentials: String?

    /// The port it listens on.
    public let port: Int

    /// Everything the proxy was asked, in order.
    public var requests: [Seen] { seen.withLockedValue { $0 } }

    /// A proxy speaking `mode`; with `requiring`, a `Proxy-Authorization` value it demands.
    public static func start(_ mode: Mode = .http, requiring credentials: String? = nil) async throws -> TestProxy {
        let box = NIOLockedValueBox<TestProxy?>(nil)
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    guard let proxy = box.withLockedValue({ $0 }) else { throw ProxyNotReady() }
                    try channel.pipeline.syncOperations.addHandler(ProxyHandler(proxy: proxy))
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        let proxy = TestProxy(mode: mode, credentials: credentials, port: channel.localAddress?.port ?? 0)
        box.withLockedValue { $0 = proxy }
        return proxy
    }

    private init(mode: Mode, credentials: String?, port: Int) {
        self.mode = mode
        self.credentials = credentials
        self.port = port
    }

    fileprivate func record(_ entry: Seen) { seen.withLockedValue { $0.append(entry) } }
    fileprivate var proxyMode: Mode { mode }
    fileprivate var required: String? { credentials }
}

private struct ProxyNotReady: Error {}

/// One client connection: reads the request head (or the SOCKS5 greeting), then either answers
/// it or opens the upstream connection and glues the two together.
private final class ProxyHandler: ChannelInboundHandler, @unchecked Sendable {
    // Touched only on the client channel's event loop.
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    let proxy: TestProxy
    private var buffered = ByteBuffer()
    private var upstream: (any Channel)?
    private var socksStage = 0

    init(proxy: TestProxy) { self.proxy = proxy }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var bytes = unwrapInboundIn(data)
        if let upstream {
            upstream.writeAndFlush(bytes, promise: nil)
            return
        }
        buffered.writeBuffer(&bytes)
        switch proxy.proxyMode {
        case .http: readHead(context)
        case .socks5: readSOCKS(context)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        upstream?.close(promise: nil)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }

    private func readHead(_ context: ChannelHandlerContext) {
        let text = String(buffer: buffered)
        guard let end = text.range(of: "\r\n\r\n") else { return }
        let head = text[..<end.lowerBound]
        let rest = Array(text[end.upperBound...].utf8)
        var lines = head.components(separatedBy: "\r\n")
        let requestLine = lines.removeFirst().split(separator: " ").map(String.init)
        guard requestLine.count == 3 else { return context.close(promise: nil) }
        let (method, target) = (requestLine[0], requestLine[1])
        let authorization = lines.first { $0.lowercased().hasPrefix("proxy-authorization:") }.map {
            String($0.dropFirst("proxy-authorization:".count)).trimmingCharacters(in: .whitespaces)
        }
        proxy.record(.init(method: method, target: target, authorization: authorization))
        if let required = proxy.required, authorization != required {
            let body = "proxy credentials required"
            respond(context, "HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm=\"test\"\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)", close: true)
            return
        }
        if method == "CONNECT" {
            let parts = target.split(separator: ":")
            guard parts.count == 2, let port = Int(parts[1]) else { return context.close(promise: nil) }
            connect(context, host: String(parts[0]), port: port, first: Array("HTTP/1.1 200 Connection Established\r\n\r\n".utf8), forward: rest)
        } else {
            // AsyncHTTPClient tunnels plain http with CONNECT as well; the absolute form is not
            // served here.
            respond(context, "HTTP/1.1 501 Not Implemented\r\nContent-Length: 0\r\nConnection: close\r\n\r\n", close: true)
        }
    }

    private func readSOCKS(_ context: ChannelHandlerContext) {
        if socksStage == 0 {
            // Greeting: 05, the number of methods, the methods. Answer: no authentication.
            guard buffered.readableBytes >= 2, let count = buffered.getInteger(at: buffered.readerIndex + 1, as: UInt8.self),
                buffered.readableBytes >= 2 + Int(count)
            else { return }
            buffered.moveReaderIndex(forwardBy: 2 + Int(count))
            socksStage = 1
            context.writeAndFlush(wrapOutboundOut(ByteBuffer(bytes: [5, 0])), promise: nil)
        }
        // Request: 05 01 00, then 01 and four octets, or 03, a length and a name; then the port.
        guard socksStage == 1, buffered.readableBytes >= 5, let type = buffered.getInteger(at: buffered.readerIndex + 3, as: UInt8.self) else { return }
        let host: String
        let length: Int
        switch type {
        case 1:
            guard buffered.readableBytes >= 10, let octets = buffered.getBytes(at: buffered.readerIndex + 4, length: 4) else { return }
            host = octets.map(String.init).joined(separator: ".")
            length = 10
        case 3:
            guard let size = buffered.getInteger(at: buffered.readerIndex + 4, as: UInt8.self), buffered.readableBytes >= 7 + Int(size),
                let name = buffered.getString(at: buffered.readerIndex + 5, length: Int(size))
            else { return }
            host = name
            length = 7 + Int(size)
        default:
            return context.close(promise: nil)
        }
        guard let portBytes = buffered.getBytes(at: buffered.readerIndex + length - 2, length: 2) else { return }
        let port = Int(portBytes[0]) << 8 | Int(portBytes[1])
        buffered.moveReaderIndex(forwardBy: length)
        socksStage = 2
        proxy.record(.init(method: "SOCKS5", target: "\(host):\(port)", authorization: nil))
        let rest = buffered.readBytes(length: buffered.readableBytes) ?? []
        connect(context, host: host, port: port, first: [5, 0, 0, 1, 0, 0, 0, 0, 0, 0], forward: rest)
    }

    private func respond(_ context: ChannelHandlerContext, _ text: String, close: Bool) {
        context.writeAndFlush(wrapOutboundOut(ByteBuffer(string: text))).assumeIsolated().whenComplete { _ in
            if close { context.close(promise: nil) }
        }
    }

    /// Opens the upstream connection; then sends `first` to the client, `forward` upstream, and
    /// glues the two.
    private func connect(_ context: ChannelHandlerContext, host: String, port: Int, first: [UInt8], forward: [UInt8]) {
        let client = context.channel
        buffered.clear()
        context.channel.setOption(.autoRead, value: false).whenComplete { _ in }
        ClientBootstrap(group: context.eventLoop)
            .channelInitializer { upstream in
                upstream.eventLoop.makeCompletedFuture { try upstream.pipeline.syncOperations.addHandler(Relay(to: client)) }
            }
            .connect(host: host, port: port)
            .assumeIsolated()
            .whenComplete { result in
                switch result {
                case .success(let upstream):
                    self.upstream = upstream
                    if !first.isEmpty { client.writeAndFlush(ByteBuffer(bytes: first), promise: nil) }
                    if !forward.isEmpty { upstream.writeAndFlush(ByteBuffer(bytes: forward), promise: nil) }
                    client.setOption(.autoRead, value: true).whenComplete { _ in }
                case .failure:
                    let text = "HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
                    client.writeAndFlush(ByteBuffer(string: text)).whenComplete { _ in client.close(promise: nil) }
                }
            }
    }
}

/// Passes what the upstream sends to the client, and closes the client when the upstream closes.
private final class Relay: ChannelInboundHandler, Sendable {
    typealias InboundIn = ByteBuffer
    let client: any Channel

    init(to client: any Channel) { self.client = client }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        client.writeAndFlush(unwrapInboundIn(data), promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) { client.close(promise: nil) }
    func errorCaught(context: ChannelHandlerContext, error: any Error) { context.close(promise: nil) }
}
