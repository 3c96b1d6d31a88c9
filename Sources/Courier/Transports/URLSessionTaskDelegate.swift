import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPTypes
import OpenAPIRuntime

/// The delegate of every session of one transport: finds each task's ``Exchange``.
final class TaskDelegate: NSObject, URLSessionDataDelegate, Sendable {
    private let exchanges = Locked([ObjectIdentifier: Exchange]())

    func register(_ exchange: Exchange, for task: URLSessionTask) {
        exchanges.withLock { $0[ObjectIdentifier(task)] = exchange }
    }

    /// How many tasks have not been reported complete yet.
    var count: Int {
        exchanges.withLock { $0.count }
    }

    private func exchange(_ task: URLSessionTask) -> Exchange? {
        exchanges.withLock { $0[ObjectIdentifier(task)] }
    }

    func urlSession(
        _ session: URLSession,
        dataTask: URLSessionDataTask,
        didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        if let status = (response as? HTTPURLResponse)?.statusCode, (100...199).contains(status), status != 101 {
            // FoundationNetworking reports every interim head (100 Continue, 102 Processing,
            // 103 Early Hints) as if it were the response; the final one follows.
            completionHandler(.allow)
            return
        }
        let accepted = exchange(dataTask)?.receive(response) ?? false
        completionHandler(accepted ? .allow : .cancel)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        exchange(dataTask)?.receive(data)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let exchange = exchanges.withLock { $0.removeValue(forKey: ObjectIdentifier(task)) }
        exchange?.complete(error)
    }

    /// Redirects come back as responses; Courier follows them under its policy.
    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest,
        completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }

    /// A `401` or `407` carrying a challenge comes back as the response it is, without its body:
    /// there is nothing to answer with (no credential storage), and FoundationNetworking would
    /// otherwise leave the task waiting. Other challenges get the default handling.
    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        let space = challenge.protectionSpace
        let httpMethods = [
            NSURLAuthenticationMethodDefault, NSURLAuthenticationMethodHTTPBasic, NSURLAuthenticationMethodHTTPDigest,
            NSURLAuthenticationMethodNTLM, NSURLAuthenticationMethodNegotiate,
        ]
        guard httpMethods.contains(space.authenticationMethod), let exchange = exchange(task) else {
            completionHandler(.performDefaultHandling, nil)
            return
        }
        if let response = (challenge.failureResponse ?? task.response) as? HTTPURLResponse {
            exchange.receiveWithoutBody(response)
        } else if let url = task.originalRequest?.url {
            // FoundationNetworking may give neither: the challenge itself says what was asked.
            let scheme = space.authenticationMethod == NSURLAuthenticationMethodHTTPDigest ? "Digest" : "Basic"
            let realm = space.realm.map { " realm=\"\($0)\"" } ?? ""
            let status = space.isProxy() ? 407 : 401
            let field = space.isProxy() ? "Proxy-Authenticate" : "WWW-Authenticate"
            if let response = HTTPURLResponse(url: url, statusCode: status, httpVersion: "HTTP/1.1", headerFields: [field: scheme + realm, "Content-Length": "0"]) {
                exchange.receiveWithoutBody(response)
            }
        }
        // Answered on the session's calls queue: FoundationNetworking cancels the task there and
        // then, waiting for the session's work queue.
        exchange.onSessionQueue { completionHandler(.cancelAuthenticationChallenge, nil) }
    }
}

/// An exchange held weakly, so that a body outliving its task does not keep it.
struct WeakExchange: Sendable {
    weak var exchange: Exchange?
    init(_ exchange: Exchange) { self.exchange = exchange }
}

/// The body of an exchange as its reader sees it: each chunk read is counted against the
/// exchange's backlog, and a reader that stops before the end — breaks out of its loop, drops
/// the iterator — cancels the task at once, closing the connection, even while the response
/// that holds the body lives on.
struct ExchangeBody: AsyncSequence, Sendable {
    typealias Element = ArraySlice<UInt8>
    let stream: AsyncThrowingStream<ArraySlice<UInt8>, any Error>
    let exchange: WeakExchange

    func makeAsyncIterator() -> Iterator {
        Iterator(base: stream.makeAsyncIterator(), reader: Reader(exchange))
    }

    struct Iterator: AsyncIteratorProtocol {
        var base: AsyncThrowingStream<ArraySlice<UInt8>, any Error>.AsyncIterator
        let reader: Reader

        mutating func next() async throws -> ArraySlice<UInt8>? {
            do {
                guard let chunk = try await base.next() else {
                    reader.ended = true
                    return nil
                }
                reader.exchange.exchange?.read(chunk.count)
                return chunk
            } catch {
                reader.ended = true
                throw error
            }
        }
    }

    /// Cancels the exchange when the reader goes away before the body ended.
    final class Reader {
        let exchange: WeakExchange
        var ended = false
        init(_ exchange: WeakExchange) { self.exchange = exchange }
        deinit { if !ended { exchange.exchange?.cancel() } }
    }
}
