import Foundation

extension Provider {
    /// Runs `work`, failing with ``CourierError/Kind/timeout`` when it does not finish within
    /// `timeout`. The call returns at the bound even when `work` is slow to stop: `work` runs as
    /// a task of its own, which is cancelled and left to finish on its own — so a transport that
    /// ignores cancellation cannot stretch the bound.
    ///
    /// The timeout and cancellation errors carry the attempts that `progress` holds.
    func within<T: Sendable>(
        _ timeout: Duration,
        _ request: RawRequest,
        _ progress: Locked<RetryRecord>? = nil,
        _ work: @escaping @Sendable () async throws(CourierError) -> T
    ) async throws(CourierError) -> T {
        @Sendable func ended(_ error: CourierError) -> CourierError {
            guard let progress else { return error }
            return progress.withLock { $0 }.attach(error)
        }
        let race = Race<T>()
        let outcome: Result<T, CourierError> = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                race.start(continuation)
                race.run(
                    Task {
                        do throws(CourierError) {
                            race.finish(.success(try await work()))
                        } catch {
                            race.finish(.failure(error))
                        }
                    },
                    timer: Task {
                        guard (try? await Task.sleep(for: timeout)) != nil else { return }
                        race.finish(.failure(ended(CourierError(.timeout(TimeoutElapsed(limit: timeout)), operationID: request.operationID, request: request))))
                    }
                )
            }
        } onCancel: {
            race.finish(.failure(ended(CourierError(.cancelled(nil), operationID: request.operationID, request: request))))
        }
        return try outcome.get()
    }
}

/// The outcome of whichever finishes first — the work, its timer, or the caller's cancellation —
/// delivered once; the losers are cancelled.
private final class Race<T: Sendable>: Sendable {
    private struct State {
        var continuation: CheckedContinuation<Result<T, CourierError>, Never>?
        var tasks: [Task<Void, Never>] = []
        var outcome: Result<T, CourierError>?
    }

    private let state = Locked(State())

    /// Waits with `continuation`; resumes it at once when the race ended before it began (the
    /// caller was already cancelled).
    func start(_ continuation: CheckedContinuation<Result<T, CourierError>, Never>) {
        let ended: Result<T, CourierError>? = state.withLock { state in
            if let outcome = state.outcome { return outcome }
            state.continuation = continuation
            return nil
        }
        if let ended { continuation.resume(returning: ended) }
    }

    /// Keeps the two tasks to cancel; cancels them at once when the race is already over.
    func run(_ work: Task<Void, Never>, timer: Task<Void, Never>) {
        let over = state.withLock { state in
            state.tasks = [work, timer]
            return state.outcome != nil
        }
        if over { work.cancel(); timer.cancel() }
    }

    func finish(_ outcome: Result<T, CourierError>) {
        let (continuation, tasks): (CheckedContinuation<Result<T, CourierError>, Never>?, [Task<Void, Never>]) = state.withLock { state in
            guard state.outcome == nil else { return (nil, []) }
            state.outcome = outcome
            defer { state.continuation = nil }
            return (state.continuation, state.tasks)
        }
        guard let continuation else { return }
        for task in tasks { task.cancel() }
        continuation.resume(returning: outcome)
    }
}

/// The deadline of a request with a timeout passed.
struct TimeoutElapsed: Error, CustomStringConvertible {
    let limit: Duration
    var description: String { "no response within \(limit)" }
}
