package import AsyncHTTPClient
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOHTTP2
import NIOSSL

/// Keeps the body parts that arrived before an unclean close of a streamed response.
///
/// AsyncHTTPClient 1.37 keeps the parts it reads while its reader has not asked for more in a
/// buffer of its own, and drops that buffer when the connection fails: a server that writes
/// twenty events and then resets the connection reached the reader with fifteen of them (over
/// HTTP/2, with a reset of the stream or a close of the connection, fourteen). This handler sits
/// between the HTTP decoder and AsyncHTTPClient's handler of each HTTP/1.1 connection of
/// Courier's own clients, and between the frame translator and that handler of each HTTP/2
/// stream. When a response without a `Content-Length` (chunked, or ended by the
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
        // A read's end first: AsyncHTTPClient hands over what it holds and, no longer waiting
        // for bytes, takes the end as one that closes the connection, never as one that leaves
        // it idle for the next request (a reset comes before the read's end).
        context.fireChannelReadComplete()
        context.fireChannelRead(wrapInboundOut(.body(UncleanClose.marker(for: error, allocator: context.channel.allocator))))
        context.fireChannelRead(wrapInboundOut(.end(nil)))
        context.fireChannelReadComplete()
    }

    private static func isUncleanTLSClose(_ error: any Error) -> Bool {
        if let error = error as? NIOSSLError, case .uncleanShutdown = error { return true }
        return false
    }

    /// Puts the handler on `channel`, after the handler of type `Decoder` that makes its response
    /// parts: for the debug initializers of a client's HTTP/1.1 connections (NIO's response
    /// decoder) and HTTP/2 streams (the translator from frames), run once AsyncHTTPClient has set
    /// them up.
    static func install<Decoder: ChannelHandler & SendableMetatype>(on channel: any Channel, after decoder: Decoder.Type) -> EventLoopFuture<Void> {
        // At once when called on the channel's loop, as AsyncHTTPClient does: it writes the
        // request when this future completes, and a stream it is told to cancel before then
        // fails a request it has not yet been given.
        guard channel.eventLoop.inEventLoop else {
            return channel.eventLoop.submit { try add(to: channel, after: decoder) }
        }
        do {
            try add(to: channel, after: decoder)
            return channel.eventLoop.makeSucceededVoidFuture()
        } catch {
            return channel.eventLoop.makeFailedFuture(error)
        }
    }

    private static func add<Decoder: ChannelHandler & SendableMetatype>(to channel: any Channel, after decoder: Decoder.Type) throws {
        let operations = channel.pipeline.syncOperations
        try operations.addHandler(UncleanCloseHandler(), position: .after(try operations.handler(type: decoder)))
    }
}

extension HTTPClient.Configuration {
    /// This configuration with ``UncleanCloseHandler`` on each HTTP/1.1 connection and each
    /// HTTP/2 stream, after whatever debug initializer it has: for clients whose bodies are read
    /// only through ``ClassifiedHTTPClientBody``. A configuration that decompresses is returned as
    /// it is (the decompressor, after the decoder, would take the marker for compressed bytes).
    package func keepingPartsBeforeAnUncleanClose() -> HTTPClient.Configuration {
        guard case .disabled = decompression else { return self }
        var configuration = self
        configuration.http1_1ConnectionDebugInitializer = Self.installing(ByteToMessageHandler<HTTPResponseDecoder>.self, after: http1_1ConnectionDebugInitializer)
        configuration.http2StreamChannelDebugInitializer = Self.installing(HTTP2FramePayloadToHTTP1ClientCodec.self, after: http2StreamChannelDebugInitializer)
        return configuration
    }

    /// A debug initializer that runs `earlier`, if any, then installs the handler after `decoder`.
    private static func installing<Decoder: ChannelHandler & SendableMetatype>(
        _ decoder: Decoder.Type, after earlier: (@Sendable (any Channel) -> EventLoopFuture<Void>)?
    ) -> @Sendable (any Channel) -> EventLoopFuture<Void> {
        { channel in
            guard let earlier else { return UncleanCloseHandler.install(on: channel, after: decoder) }
            return earlier(channel).flatMap { UncleanCloseHandler.install(on: channel, after: decoder) }
        }
    }
}

/// The markers of failures handed over by ``UncleanCloseHandler``: an empty body part whose
/// storage holds a token before its reader index, known by that storage's address and token.
enum UncleanClose {
    private struct Failure {
        let token: UInt64
        let error: any Error
    }

    private static let failures = NIOLockedValueBox<(byAddress: [UInt: Failure], order: [UInt])>(([:], []))
    /// Markers no reader took (the reader stopped first) are forgotten oldest first, past this many.
    private static let kept = 1_024

    /// An empty part standing for `error`.
    static func marker(for error: any Error, allocator: ByteBufferAllocator) -> ByteBuffer {
        let token = UInt64.random(in: 1 ... .max)
        var marker = allocator.buffer(capacity: 8)
        marker.writeInteger(token)
        marker.moveReaderIndex(forwardBy: 8)
        let address = address(of: marker)
        failures.withLockedValue { table in
            if table.byAddress.updateValue(Failure(token: token, error: error), forKey: address) == nil {
                table.order.append(address)
            }
            while table.order.count > kept { table.byAddress.removeValue(forKey: table.order.removeFirst()) }
        }
        return marker
    }

    /// The error `part` stands for, if it is a marker: read once.
    static func failure(in part: ByteBuffer) -> (any Error)? {
        guard part.readableBytes == 0, part.readerIndex == 8 else { return nil }
        let address = address(of: part)
        let token = part.withVeryUnsafeBytes { bytes in bytes.count >= 8 ? bytes.loadUnaligned(as: UInt64.self).bigEndian : 0 }
        return failures.withLockedValue { table -> (any Error)? in
            guard let failure = table.byAddress[address], failure.token == token else { return nil }
            table.byAddress[address] = nil
            table.order.removeAll { $0 == address }
            return failure.error
        }
    }

    private static func address(of buffer: ByteBuffer) -> UInt {
        buffer.withVeryUnsafeBytes { UInt(bitPattern: $0.baseAddress) }
    }
}
