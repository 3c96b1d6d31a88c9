import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A session with the serial queue that Courier's calls into it run on.
///
/// Creating, resuming and cancelling a task wait for the session's work queue, which a fast
/// transfer can hold for seconds. Made on the cooperative pool, such a call would hold one of
/// its few threads; made on the global queue, a few of them at once exhaust its threads (two
/// on two cores), and with them the timers that `Task.sleep` and every Courier deadline rely
/// on. A serial queue of its own per session waits on one thread, in order: a task's
/// cancellation is never made before its resumption.
final class SessionCalls: Sendable {
    let session: URLSession
    private let queue: DispatchQueue

    init(_ session: URLSession) {
        self.session = session
        self.queue = DispatchQueue(label: "Courier.URLSessionHTTPTransport.calls")
    }

    /// Runs `work` on this session's queue.
    func async(_ work: @escaping @Sendable () -> Void) {
        queue.async(execute: work)
    }
}

#if canImport(FoundationNetworking)
/// The delegate queue of Courier's sessions on Linux: it runs each callback at once, on
/// FoundationNetworking's work queue, as libcurl hands the data over.
///
/// Queued, as FoundationNetworking does by default, every chunk of a body becomes an operation:
/// a fast body outruns the queue, so that Courier learns of each chunk late, while gigabytes
/// wait in memory, and decides to stop a transfer long after libcurl has received far more.
/// The delegate's callbacks never block and never call into URLSession synchronously, so they
/// can run in place.
final class InlineDelegateQueue: OperationQueue, @unchecked Sendable {
    // Unchecked: no state of its own; `OperationQueue` is not `Sendable` here.
    override func addOperation(_ block: @escaping @Sendable () -> Void) {
        block()
    }
}
#endif
