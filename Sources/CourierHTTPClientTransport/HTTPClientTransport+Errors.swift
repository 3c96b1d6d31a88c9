package import AsyncHTTPClient
import Foundation
import HTTPTypes
import NIOCore
import NIOHTTP1
import NIOPosix
import OpenAPIRuntime
import Tracing

extension HTTPClientTransport {
    /// The same kinds as on URLSession: cancelled, timed out, or a transport failure.
    static func classify(_ error: any Error) -> any Error {
        if HTTPClientConnectionFailure.isConnectFailure(error) { return HTTPClientConnectionFailure(error: error) }
        guard let error = error as? HTTPClientError else { return error }
        switch error {
        case .proxyAuthenticationRequired, .httpProxyHandshakeTimeout, .socksHandshakeTimeout:
            return HTTPClientProxyFailure(error: error)
        case .cancelled: return CancellationError()
        case .deadlineExceeded, .readTimeout, .connectTimeout, .writeTimeout, .getConnectionFromPoolTimeout:
            return HTTPClientTimeout(error: error)
        default: return error
        }
    }
}

/// A response body whose read timeouts are `HTTPClientTimeout`s, as before the head, and whose
/// unclean close comes after every part that arrived before it (``UncleanCloseHandler``).
struct ClassifiedHTTPClientBody: AsyncSequence, Sendable {
    typealias Element = ArraySlice<UInt8>
    let base: HTTPClientResponse.Body

    struct AsyncIterator: AsyncIteratorProtocol {
        var base: HTTPClientResponse.Body.AsyncIterator

        mutating func next() async throws -> ArraySlice<UInt8>? {
            let part: ByteBuffer?
            do {
                part = try await base.next()
            } catch {
                throw HTTPClientTransport.classify(error)
            }
            guard let part else { return nil }
            // An empty part is the failure that ended the body after the parts before it.
            if part.readableBytes == 0, let failure = UncleanClose.failure(in: part) {
                throw HTTPClientTransport.classify(failure)
            }
            return ArraySlice(part.readableBytesView)
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(base: base.makeAsyncIterator()) }
}

/// No connection could be opened, so nothing of the request was sent. It presents itself as
/// `NSURLErrorCannotConnectToHost`, as URLSession reports the same failure, so that Courier
/// knows it may retry any request after it.
package struct HTTPClientConnectionFailure: CustomNSError, CustomStringConvertible {
    /// The error of the last attempt to connect.
    package let error: any Error

    /// `NSURLErrorDomain`.
    package static var errorDomain: String { NSURLErrorDomain }
    /// `NSURLErrorCannotConnectToHost`.
    package var errorCode: Int { NSURLErrorCannotConnectToHost }
    /// Why the connection failed.
    package var description: String { "AsyncHTTPClient could not connect: \(error)" }

    /// Whether `error` comes from opening a connection: refused, unreachable, or not resolved.
    static func isConnectFailure(_ error: any Error) -> Bool {
        if error is NIOConnectionError { return true }
        if let error = error as? IOError {
            return [ECONNREFUSED, ENETUNREACH, EHOSTUNREACH, EADDRNOTAVAIL].contains(error.errnoCode)
        }
        return false
    }
}

/// An AsyncHTTPClient deadline that passed. It presents itself as `NSURLErrorTimedOut`, so that
/// Courier reports it as a timeout exactly as it does URLSession's.
struct HTTPClientTimeout: CustomNSError, CustomStringConvertible {
    /// The client's error: a deadline, a read, connect or write timeout, or no connection in time.
    let error: HTTPClientError

    static var errorDomain: String { NSURLErrorDomain }
    var errorCode: Int { NSURLErrorTimedOut }
    /// What timed out.
    var description: String { "AsyncHTTPClient: \(error)" }
    /// For a timeout before any connection was had — connecting, or waiting for one from the
    /// pool — `CourierRequestNotSent: true`: nothing of the request was sent, so any request may
    /// be retried after it.
    var errorUserInfo: [String: Any] {
        error == .connectTimeout || error == .getConnectionFromPoolTimeout ? ["CourierRequestNotSent": true] : [:]
    }
}

/// Writes propagation fields into AsyncHTTPClient's headers, to learn their names.
struct HeaderInjector: Injector {
    func inject(_ value: String, forKey key: String, into carrier: inout HTTPHeaders) {
        carrier.add(name: key, value: value)
    }
}

/// The proxy refused the request (`407`: credentials missing or wrong) or did not answer its
/// handshake in time.
package struct HTTPClientProxyFailure: Error, CustomStringConvertible {
    /// AsyncHTTPClient's error.
    package let error: HTTPClientError
    package var description: String {
        error == .proxyAuthenticationRequired
            ? "the proxy answered 407 Proxy Authentication Required: its credentials are missing or wrong"
            : "the proxy did not complete its handshake in time (\(error))"
    }
}
