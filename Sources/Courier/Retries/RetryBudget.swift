import Foundation

/// How much extra load retries may put on a server: at most `ratio` of the requests sent in
/// the last `window`, plus `minimum` retries in that window.
///
/// A provider's budget is shared by every request it sends (and by its copies). Each request
/// that may be retried is counted; each retry spends one. When the budget is spent, a failure
/// that would have been retried is returned at once, its ``CourierError/retryStoppedBecause``
/// saying so. So a server that fails every request sees at most about `1 + ratio` times the
/// requests it would have seen without retries — not `maxAttempts` times — while a server that
/// fails now and then gets every retry. (Finagle's retry budget, gRPC's retry throttling and the
/// AWS SDKs' retry quota work the same way.)
///
/// ```swift
/// provider.retryBudget = RetryBudget(ratio: 0.1, minimum: 5)
/// provider.retryBudget = nil  // no limit: every retry the policy allows
/// ```
public final class RetryBudget: Sendable {
    /// The fraction of recent requests that may be retried.
    let ratio: Double
    /// Retries allowed in any window however few requests were sent, so that a quiet client
    /// can still retry.
    let minimum: Int
    /// How far back requests and retries count.
    let window: Duration

    private static let slots = 10
    private struct State {
        var requests = [Int](repeating: 0, count: RetryBudget.slots)
        var retries = [Int](repeating: 0, count: RetryBudget.slots)
        /// The slot of the last request or retry counted.
        var slot = 0
    }
    private let state = Locked(State())
    /// The width of a slot, in nanoseconds of the monotonic clock.
    private let slotWidth: UInt64

    /// A budget letting retries add `ratio` of the requests of the last `window`, plus
    /// `minimum`: by default 0.2 of the requests of the last 10 seconds, plus 10 — so that a quiet
    /// client can still retry.
    public init(ratio: Double = 0.2, minimum: Int = 10, window: Duration = .seconds(10)) {
        self.ratio = max(0, ratio)
        self.minimum = max(0, minimum)
        self.window = window > .zero ? window : .seconds(10)
        self.slotWidth = UInt64(max(self.window.nanoseconds / Int64(Self.slots), 1))
    }

    /// Counts a request that may be retried.
    func deposit() {
        state.withLock { state in
            // Read under the lock, so that slots are counted in the order time gives them.
            let now = currentSlot()
            Self.advance(&state, to: now)
            state.requests[now % Self.slots] += 1
        }
    }

    /// Spends one retry when the budget has room; `false` when it is spent.
    func withdraw() -> Bool {
        return state.withLock { state in
            let now = currentSlot()
            Self.advance(&state, to: now)
            let requests = state.requests.reduce(0, +)
            let retries = state.retries.reduce(0, +)
            guard Double(retries + 1) <= Double(minimum) + ratio * Double(requests) else { return false }
            state.retries[now % Self.slots] += 1
            return true
        }
    }

    /// The slot of the current time on the monotonic clock (a plain integer read: this runs on
    /// every request that may be retried).
    private func currentSlot() -> Int {
        Int(clamping: DispatchTime.now().uptimeNanoseconds / slotWidth)
    }

    /// Empties the slots that fell out of the window since `state.slot`.
    private static func advance(_ state: inout State, to slot: Int) {
        guard slot > state.slot else { return }
        for passed in (state.slot + 1)...min(slot, state.slot + slots) {
            state.requests[passed % slots] = 0
            state.retries[passed % slots] = 0
        }
        state.slot = slot
    }
}
