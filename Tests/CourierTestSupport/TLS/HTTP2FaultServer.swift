import NIOConcurrencyHelpers
import NIOCore
import NIOHPACK
import NIOHTTP2
import NIOPosix
import NIOSSL

/// An HTTP/2 server over TLS, on 127.0.0.1 with an OS-chosen port, with one fault: its first
/// connection says GOAWAY at its first request (every later connection answers normally, each
/// answer's body naming the connection and stream it came on: `connection 1, stream 1`), or
/// every answer streams chunks and then ends uncleanly. It counts connections, requests and
/// answers, so that a test can tell what a client sent again.
public final class HTTP2FaultServer: Sendable {
    /// The fault.
    public enum Mode: Sendable {
        /// GOAWAY naming that request's stream as the last one it will process, then the answer,
        /// then the connection closes: the request completes, later ones need a new connection.
        case graceful
        /// GOAWAY naming no stream as processed, and the connection closes unanswered: the
        /// request was never acted on (RFC 9113 §6.8), so sending it again is safe.
        case refusing
        /// Every request: a `text/event-stream` answer without a length, each chunk a DATA frame,
        /// then RST_STREAM (`INTERNAL_ERROR`) in place of the body's end.
        case streamThenReset([String])
        /// Every request: the same answer, then the connection closes in place of the body's end.
        case streamThenClose([String])
        /// Every request: the normal answer, then the connection closes, as a server that keeps
        /// no idle connection does.
        case closingAfterEachAnswer
    }

    /// What the server saw.
    public struct Seen: Sendable, Equatable {
        /// Connections accepted.
        public var connections = 0
        /// Requests received in full.
        public var requests = 0
        /// Requests answered.
        public var answered = 0

        public init(connections: Int = 0, requests: Int = 0, answered: Int = 0) {
            self.connections = connections
            self.requests = requests
            self.answered = answered
        }
    }

    private let state = NIOLockedValueBox(Seen())
    private let pathsSeen = NIOLockedValueBox([String]())

    /// The path of each request received in full, in the order they came.
    public var paths: [String] { pathsSeen.withLockedValue { $0 } }
    private let channel: any Channel
    let mode: Mode

    /// The port it listens on.
    public let port: Int

    /// What the server has seen so far.
    public var seen: Seen { state.withLockedValue { $0 } }

    /// A server in `mode`, presenting ``TestPKI/server`` and offering only `h2`.
    public static func start(_ mode: Mode) async throws -> HTTP2FaultServer {
        let pki = TestPKI.shared
        var tls = TLSConfiguration.makeServerConfiguration(
            certificateChain: try NIOSSLCertificate.fromPEMBytes(Array(pki.server.certificatePEM.utf8)).map { .certificate($0) },
            privateKey: .privateKey(try NIOSSLPrivateKey(bytes: Array(pki.server.privateKeyPEM.utf8), format: .pem))
        )
        tls.applicationProtocols = ["h2"]
        let context = try NIOSSLContext(configuration: tls)
        let box = NIOLockedValueBox<HTTP2FaultServer?>(nil)
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    guard let server = box.withLockedValue({ $0 }) else { throw HTTP2FaultServerNotReady() }
                    let connection = server.state.withLockedValue { seen in
                        seen.connections += 1
                        return seen.connections - 1
                    }
                    try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: context))
                    _ = try channel.pipeline.syncOperations.configureHTTP2Pipeline(
                        mode: .server, connectionConfiguration: .init(), streamConfiguration: .init()
                    ) { stream in
                        stream.eventLoop.makeCompletedFuture {
                            try stream.pipeline.syncOperations.addHandler(StreamHandler(server: server, connection: connection))
                        }
                    }
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        let server = HTTP2FaultServer(mode: mode, channel: channel)
        box.withLockedValue { $0 = server }
        return server
    }

    private init(mode: Mode, channel: any Channel) {
        self.mode = mode
        self.channel = channel
        self.port = channel.localAddress?.port ?? 0
    }

    /// Stops listening; connections still open close with their peers.
    public func stop() async {
        try? await channel.close()
    }

    func record(_ change: (inout Seen) -> Void) {
        state.withLockedValue(change)
    }

    func record(path: String) {
        pathsSeen.withLockedValue { $0.append(path) }
    }
}

private struct HTTP2FaultServerNotReady: Error {}

/// One stream: waits for the whole request, then answers, or on the first connection says GOAWAY
/// as the server's mode asks.
private final class StreamHandler: ChannelInboundHandler, @unchecked Sendable {
    typealias InboundIn = HTTP2Frame.FramePayload
    typealias OutboundOut = HTTP2Frame.FramePayload

    // Touched only on the stream's event loop.
    private let server: HTTP2FaultServer
    private let connection: Int
    private var path = ""

    init(server: HTTP2FaultServer, connection: Int) {
        self.server = server
        self.connection = connection
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let ended: Bool
        switch unwrapInboundIn(data) {
        case .headers(let headers):
            path = headers.headers.first(name: ":path") ?? path
            ended = headers.endStream
        case .data(let data): ended = data.endStream
        default: ended = false
        }
        guard ended else { return }
        server.record { $0.requests += 1 }
        server.record(path: path)
        let stream = (try? context.channel.syncOptions?.getOption(HTTP2StreamChannelOptions.streamID)) ?? .rootStream
        switch server.mode {
        case .streamThenReset(let chunks):
            writeEvents(chunks, context).whenComplete { _ in
                context.writeAndFlush(self.wrapOutboundOut(.rstStream(.internalError)), promise: nil)
            }
            return
        case .streamThenClose(let chunks):
            writeEvents(chunks, context).whenComplete { _ in context.channel.parent?.close(promise: nil) }
            return
        case .closingAfterEachAnswer:
            answer(context, stream: stream).whenComplete { _ in context.channel.parent?.close(promise: nil) }
            return
        case .graceful, .refusing:
            break
        }
        guard connection == 0, let parent = context.channel.parent else {
            answer(context, stream: stream)
            return
        }
        switch server.mode {
        case .graceful:
            parent.writeAndFlush(HTTP2Frame(streamID: .rootStream, payload: .goAway(lastStreamID: stream, errorCode: .noError, opaqueData: nil)), promise: nil)
            answer(context, stream: stream).whenComplete { _ in parent.close(promise: nil) }
        case .refusing:
            parent.writeAndFlush(HTTP2Frame(streamID: .rootStream, payload: .goAway(lastStreamID: .rootStream, errorCode: .noError, opaqueData: nil)))
                .whenComplete { _ in parent.close(promise: nil) }
        case .streamThenReset, .streamThenClose, .closingAfterEachAnswer:
            break
        }
    }

    /// Writes the head of an event stream and each of `chunks` as a DATA frame, none ending the
    /// stream; the future completes once all of them were handed to the connection.
    private func writeEvents(_ chunks: [String], _ context: ChannelHandlerContext) -> EventLoopFuture<Void> {
        let headers = HPACKHeaders([(":status", "200"), ("content-type", "text/event-stream")])
        context.write(wrapOutboundOut(.headers(.init(headers: headers))), promise: nil)
        server.record { $0.answered += 1 }
        for chunk in chunks {
            context.write(wrapOutboundOut(.data(.init(data: .byteBuffer(ByteBuffer(string: chunk))))), promise: nil)
        }
        return context.writeAndFlush(wrapOutboundOut(.data(.init(data: .byteBuffer(ByteBuffer())))))
    }

    @discardableResult
    private func answer(_ context: ChannelHandlerContext, stream: HTTP2StreamID) -> EventLoopFuture<Void> {
        let body = ByteBuffer(string: "connection \(connection), stream \(Int(stream))")
        let headers = HPACKHeaders([(":status", "200"), ("content-type", "text/plain"), ("content-length", "\(body.readableBytes)")])
        context.write(wrapOutboundOut(.headers(.init(headers: headers))), promise: nil)
        server.record { $0.answered += 1 }
        return context.writeAndFlush(wrapOutboundOut(.data(.init(data: .byteBuffer(body), endStream: true))))
    }
}
