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
    /// A point on a ``RecordingClock``: the time its waits add up to.
    public struct Instant: InstantProtocol {
        /// Time since the clock was made.
        public var offset: Duration

        /// The instant `duration` later.
        public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        /// The time from this instant to `other`.
        public func duration(to other: Instant) -> Duration { other.offset - offset }
        /// Whether `lhs` comes first.
        public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private struct State {
        var now = Instant(offset: .zero)
        var waits: [Duration] = []
    }
    private let state = Locked(State())

    /// A clock at zero with no waits.
    public init() {}

    /// The sum of the waits so far.
    public var now: Instant { state.withLock { $0.now } }

    /// Zero: every wait is exact.
    public var minimumResolution: Duration { .zero }

    /// Every wait so far, in order.
    public var waits: [Duration] { state.withLock { $0.waits } }

    /// Records the wait until `deadline` and returns at once, with the clock at `deadline`;
    /// throws `CancellationError` when the task is cancelled.
    public func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        try Task.checkCancellation()
        state.withLock { state in
            state.waits.append(max(.zero, state.now.duration(to: deadline)))
            if deadline > state.now { state.now = deadline }
        }
    }
}
