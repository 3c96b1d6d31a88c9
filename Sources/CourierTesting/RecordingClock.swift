import Courier
import Foundation

/// A clock for tests that never sleeps: each wait is recorded and moves the clock forward at
/// once, so retry backoff is checked exactly and a test takes no time.
///
/// ```swift
/// let clock = RecordingClock()
/// var provider = Provider(baseURL: server)
/// provider.retryPolicy = RetryPolicy(maxAttempts: 3, jitter: .none)
/// provider.clock = clock
/// _ = try await provider.send(request)
/// #expect(clock.waits == [.milliseconds(200), .milliseconds(400)])
/// ```
public final class RecordingClock: Clock, Sendable {
    private struct State {
        var now: ContinuousClock.Instant
        var waits: [Duration] = []
    }
    private let state = Locked(State(now: .now))

    /// A clock at the present instant with no waits.
    public init() {}

    /// The instant the clock was made, moved forward by the waits so far.
    public var now: ContinuousClock.Instant { state.withLock { $0.now } }

    /// Zero: every wait is exact.
    public var minimumResolution: Duration { .zero }

    /// Every wait so far, in order.
    public var waits: [Duration] { state.withLock { $0.waits } }

    /// Records the wait until `deadline` and returns at once, with the clock at `deadline`;
    /// throws `CancellationError` when the task is cancelled.
    public func sleep(until deadline: ContinuousClock.Instant, tolerance: Duration?) async throws {
        try Task.checkCancellation()
        state.withLock { state in
            state.waits.append(max(.zero, state.now.duration(to: deadline)))
            if deadline > state.now { state.now = deadline }
        }
    }
}
