import AsyncHTTPClient
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOSSL

/// Keeps the body parts that arrived before an unclean close of a streamed response.
///
/// AsyncHTTPClient 1.37 keeps the parts it reads while its reader has not asked for more in a
/// buffer of its own, and drops that buffer when the connection fails: a server that writes
/// twenty events and then resets the connection reached the reader with fifteen of them. This
/// handler sits between the HTTP decoder and AsyncHTTPClient's handler of each connection of
/// Courier's own clients. When a response without a `Content-Length` (chunked, or ended by the
/// close) fails while its body arrives, it hands AsyncHTTPClient a marker part carrying the
/// failure and then the response's end: AsyncHTTPClient passes on every part it holds, the
/// marker last, and ``ClassifiedHTTPClientBody`` throws the failure when it meets the marker.
/// The caller gets every byte that reached the process, then the same error as before.
///
/// Responses with a `Content-Length` keep AsyncHTTPClient's behaviour: a short one fails as a
/// whole. A TLS close without `close_notify` on a chunked response is left to AsyncHTTPClient,
/// which waits for the decoder's verdict on it, as it does today.
final class UncleanCloseHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPClientResponsePart
    typealias InboundOut = HTTPClientResponsePart

    private enum State {
        /// No response body arriving, or one with a length.
        case idle
        /// The body of a response without a length is arriving; `closeDelimited` when neither
        /// its length nor chunking marks its end.
        case streaming(closeDelimited: Bool)
        /// The failure was handed over: what the decoder still makes of the closing connection
        /// is dropped, AsyncHTTPClient having seen the response's end.
        case handedOver
    }

    private var state = State.idle

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch (state, unwrapInboundIn(data)) {
        case (.handedOver, _):
            return
        case (_, .head(let head)) where head.status.code >= 200:
            let hasLength = head.headers.contains(name: "content-length")
            state = hasLength ? .idle : .streaming(closeDelimited: !head.headers.contains(name: "transfer-encoding"))
        case (_, .end):
            state = .idle
        default:
            break
        }
        context.fireChannelRead(data)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if case .streaming(let closeDelimited) = state, !(Self.isUncleanTLSClose(error) && !closeDelimited) {
            handOver(error, context: context)
        }
        context.fireErrorCaught(error)
    }

    func channelInactive(context: ChannelHandlerContext) {
        if case .streaming = state {
            handOver(HTTPClientError.remoteConnectionClosed, context: context)
        }
        context.fireChannelInactive()
    }

    /// Ends the response for AsyncHTTPClient with the marker of `error` as its last part.
    private func handOver(_ error: any Error, context: ChannelHandlerContext) {
        state = .handedOver
        context.fireChannelRead(wrapInboundOut(.body(UncleanClose.marker(for: error, allocator: context.channel.allocator))))
        context.fireChannelRead(wrapInboundOut(.end(nil)))
        context.fireChannelReadComplete()
    }

    private static func isUncleanTLSClose(_ error: any Error) -> Bool {
        if let error = error as? NIOSSLError, case .uncleanShutdown = error { return true }
        return false
    }

    /// Puts the handler on `channel`, after its HTTP decoder: for the debug initializer of a
    /// client's HTTP/1.1 connections, after AsyncHTTPClient has set them up.
    static func install(on channel: any Channel) -> EventLoopFuture<Void> {
        channel.eventLoop.submit {
            let operations = channel.pipeline.syncOperations
            let decoder = try operations.handler(type: ByteToMessageHandler<HTTPResponseDecoder>.self)
            try operations.addHandler(UncleanCloseHandler(), position: .after(decoder))
        }
    }
}

extension HTTPClient.Configuration {
    /// This configuration with ``UncleanCloseHandler`` on each HTTP/1.1 connection, after
    /// whatever debug initializer it has: for Courier's own clients only, whose bodies are read
    /// through ``ClassifiedHTTPClientBody`` and never decompressed by the client.
    func keepingPartsBeforeAnUncleanClose() -> HTTPClient.Configuration {
        var configuration = self
        let earlier = http1_1ConnectionDebugInitializer
        configuration.http1_1ConnectionDebugInitializer = { channel in
            guard let earlier else { return UncleanCloseHandler.install(on: channel) }
            return earlier(channel).flatMap { UncleanCloseHandler.install(on: channel) }
        }
        return configuration
    }
}

/// The markers of failures handed over by ``UncleanCloseHandler``: an empty body part, known
/// by its storage, that stands for an error.
enum UncleanClose {
    private static let failures = NIOLockedValueBox<[UInt: any Error]>([:])

    /// An empty part standing for `error`.
    static func marker(for error: any Error, allocator: ByteBufferAllocator) -> ByteBuffer {
        let marker = allocator.buffer(capacity: 1)
        failures.withLockedValue { failures in
            // A marker whose stream nobody read to its end is never taken: keep the table small.
            if failures.count >= 64 { failures.removeAll() }
            failures[address(of: marker)] = error
        }
        return marker
    }

    /// The error `part` stands for, if it is a marker: read once.
    static func failure(in part: ByteBuffer) -> (any Error)? {
        guard part.readableBytes == 0 else { return nil }
        let key = address(of: part)
        return failures.withLockedValue { $0.removeValue(forKey: key) }
    }

    private static func address(of buffer: ByteBuffer) -> UInt {
        buffer.withVeryUnsafeBytes { UInt(bitPattern: $0.baseAddress) }
    }
}
