import CourierWire
import AsyncHTTPClient
import Foundation
import HTTPTypes
import NIOCore
import NIOSSL
import OpenAPIRuntime

/// Why a request that failed before any of its response arrived may go once more on a new
/// connection, and whether it provably never left.
struct ConnectionResend {
    /// Said in the request's span and log entry.
    let reason: String
    /// Whether the request was never written: no server can have seen it.
    let unwritten: Bool
}

extension HTTPClientTransport {
    /// The most times one request is handed to the client: the first, the resend, and one more
    /// only if the resend itself met a closing connection before it was written (a pool whose
    /// connections a server closed all at once, or an HTTP/2 connection the pool has not yet
    /// seen close).
    static let connectionSendLimit = 3

    /// Why `error`, thrown before any of the response arrived, lets `request` go once more on a
    /// new connection, or `nil`. A pooled connection the server closed while it was idle fails
    /// the request that meets the close: if the request was never written, any method may go
    /// again; if it may have reached the server, only an idempotent one (RFC 9110 §9.2.2). The
    /// body must be one that can be sent again. Independent of the retry policy.
    static func connectionResend(after error: any Error, method: HTTPRequest.Method, body: RequestPayload?) -> ConnectionResend? {
        guard Self.canSendAgain(body) else { return nil }
        if let error = error as? ChannelError, error == .ioOnClosedChannel {
            return ConnectionResend(reason: "the connection was closed before the request was written", unwritten: true)
        }
        // AsyncHTTPClient fails a request it hands to an HTTP/2 connection already closing with
        // `cancelled`, before opening a stream for it; the caller's own cancellation is not this.
        if let error = error as? HTTPClientError, error == .cancelled, !Task.isCancelled {
            return ConnectionResend(reason: "the connection was closing before the request was written", unwritten: true)
        }
        guard Self.idempotentMethods.contains(method) else { return nil }
        if let error = error as? HTTPClientError, error == .remoteConnectionClosed {
            return ConnectionResend(reason: "the server closed the connection before answering", unwritten: false)
        }
        if let error = error as? NIOSSLError, case .uncleanShutdown = error {
            return ConnectionResend(reason: "the server closed the connection before answering", unwritten: false)
        }
        if let error = error as? IOError, error.errnoCode == ECONNRESET || error.errnoCode == EPIPE {
            return ConnectionResend(reason: "the connection was reset before an answer", unwritten: false)
        }
        return nil
    }

    /// `GET`, `HEAD`, `OPTIONS`, `TRACE`, `PUT` and `DELETE`: sending one twice has the effect
    /// of sending it once.
    private static let idempotentMethods: Set<HTTPRequest.Method> = [.get, .head, .options, .trace, .put, .delete]

    /// Whether `body` can be sent a second time: none, bytes in memory, a stream short enough to
    /// be read into one buffer first, or one that can be iterated more than once.
    private static func canSendAgain(_ body: RequestPayload?) -> Bool {
        guard let body, !body.isReplayable, case .stream(let stream) = body else { return true }
        if case .known(let count) = stream.length { return count <= bufferedLimit }
        return false
    }
}
