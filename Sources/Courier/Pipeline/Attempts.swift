import CourierWire
import Foundation
import HTTPTypes
import OpenAPIRuntime

extension Provider {
    /// The attempts stage: the call sent once — or as often as its ``RetryPolicy`` and the
    /// provider's ``Authenticator`` allow — all within its total bound. Returns the last reply,
    /// its body read whole unless the call streams, with the account of the attempts, to be
    /// attached to an error the caller finds in it (a status, say).
    @inline(__always)  // into the cache stage's general path
    nonisolated(nonsending) func attempts(_ call: Call) async throws(CourierError) -> (Reply, RetryRecord) {
        let authenticator = authenticator(for: call.request)
        let repeats = Self.repeats(call, authenticator)
        guard let total = call.total else {
            // One attempt and no bound of its own: no closure to make, nothing to record.
            guard repeats else { return (try await attempt(call), RetryRecord()) }
            return try await attempting(call, authenticator, total: nil, progress: nil)
        }
        return try await boundedAttempts(call, authenticator, repeats: repeats, within: total)
    }

    /// The attempts of a call with a total bound. A function of its own, so that the frame of
    /// a call without one holds none of what the bound needs.
    @inline(never)
    private nonisolated(nonsending) func boundedAttempts(
        _ call: Call, _ authenticator: (any RequestAuthenticating)?, repeats: Bool, within total: Duration
    ) async throws(CourierError) -> (Reply, RetryRecord) {
        // The attempts so far, for an error that ends them from outside (the bound,
        // cancellation): only when there can be more than one.
        let progress = repeats ? Locked(RetryRecord()) : nil
        return try await within(total, call.request, progress) { () async throws(CourierError) in
            guard repeats else { return (try await self.attempt(call), RetryRecord()) }
            return try await self.attempting(call, authenticator, total: total, progress: progress)
        }
    }

    /// Whether `call` may be sent more than once: its retry policy retries, or `authenticator`
    /// (the provider's, when it applies to the call) may refresh a refused credential.
    static func repeats(_ call: Call, _ authenticator: (any RequestAuthenticating)?) -> Bool {
        call.retryPolicy?.retries == true || authenticator != nil
    }

    /// One exchange of `call`, its body read whole unless the call streams.
    @inline(__always)
    nonisolated(nonsending) func attempt(_ call: Call) async throws(CourierError) -> Reply {
        var reply = try await exchange(call)
        try await read(&reply, of: call, counting: true)
        return reply
    }

    /// Reads `reply`'s body whole, in place — up to ``responseBodyLimit``, counted for the
    /// download progress when `counting` — unless the call streams or the transport read it
    /// already. (Taken and returned, the reply was copied on every request.)
    @inline(__always)  // the check only: a body the transport read whole needs nothing more
    private nonisolated(nonsending) func read(_ reply: inout Reply, of call: Call, counting: Bool) async throws(CourierError) {
        guard Self.hasBodyToRead(reply, call) else { return }
        try await readStream(&reply, of: call, counting: counting)
    }

    /// Whether `reply`'s body is still to be read: it is arriving, and the call does not hand it
    /// over as a stream.
    private static func hasBodyToRead(_ reply: Reply, _ call: Call) -> Bool {
        !call.streams && reply.isArriving
    }

    /// ``read(_:of:counting:)`` for a body still arriving. A function of its own, so that the
    /// frame of a call whose body came whole holds none of what reading a stream needs.
    @inline(never)
    private nonisolated(nonsending) func readStream(_ reply: inout Reply, of call: Call, counting: Bool) async throws(CourierError) {
        guard case .stream(let body) = reply.body else { return }
        do {
            let counted = counting ? body.map { call.downloadProgress?.counting($0) ?? $0 } : body
            reply.body = .whole(try await collectResponseBody(counted, limit: responseBodyLimit, status: reply.head.status))
        } catch {
            throw error.with(operationID: reply.request.operationID, request: reply.request)
        }
    }

    /// The attempts of a call that may be sent more than once. A reply that is followed by
    /// another attempt is dropped before the wait or the refresh, which closes its body and
    /// frees its connection. `progress`, when given, holds the account as it grows. Out of
    /// line: the frame of a call sent once holds none of the loop's state.
    @inline(never)
    private nonisolated(nonsending) func attempting(
        _ call: Call,
        _ authenticator: (any RequestAuthenticating)?,
        total: Duration?,
        progress: Locked<RetryRecord>?
    ) async throws(CourierError) -> (Reply, RetryRecord) {
        var call = call
        let policy = call.retryPolicy ?? .disabled
        if policy.addsIdempotencyKey, call.request.method == .post || call.request.method == .patch, call.request.headers[.idempotencyKey] == nil {
            call.request.headers[.idempotencyKey] = UUID().uuidString
        }
        if policy.retries { retryBudget?.deposit() }
        var state = AttemptState(elapsed: policy.retries && total != nil ? clock.stopwatch() : nil, progress: progress)
        while true {
            state.number += 1
            // The first attempt's number is the request's already: not set, so that the request
            // is not copied for it.
            if call.request.attempt != state.number { call.request.attempt = state.number }
            switch try await runAttempt(&call, &state, authenticator, total) {
            case .finished(let reply):
                return (reply, state.record)
            case .refresh(let refreshes):
                // The refused response is gone; its connection is free for the refresh.
                call.observer?.refreshing()
                do {
                    try await authenticator?.refresh(after: refreshes)
                } catch {
                    throw state.record.attach(Self.authenticationError(error, call.request))
                }
            case .wait(let wait):
                call.observer?.retrying()
                do {
                    try await clock.wait(wait)
                } catch {
                    throw state.record.attach(CourierError(.cancelled(error), operationID: call.request.operationID, request: call.request))
                }
            }
        }
    }

    /// What the loop keeps between attempts.
    private struct AttemptState {
        let elapsed: (@Sendable () -> Duration)?
        let progress: Locked<RetryRecord>?
        var record = RetryRecord()
        var refreshed = false
        var number = 0

        init(elapsed: (@Sendable () -> Duration)?, progress: Locked<RetryRecord>?) {
            self.elapsed = elapsed
            self.progress = progress
        }

        mutating func append(_ number: Int, status: HTTPResponse.Status?, failure: CourierError? = nil, wait: Duration? = nil) {
            record.append(number, status: status, failure: failure, wait: wait)
            if let progress { progress.withLock { [record] in $0 = record } }
        }
    }

    /// What follows one attempt.
    private enum AttemptEnd {
        /// The reply to return (or to throw, as the record's `finish` did).
        case finished(Reply)
        /// Refresh the credential, then send again.
        case refresh(after: Int)
        /// Wait, then send again.
        case wait(Duration)
    }

    /// One attempt of `call` — its credential applied, under a span of its own — and what
    /// follows it. The reply lives only here, so that one that is not returned is released
    /// before the loop waits or refreshes.
    private nonisolated(nonsending) func runAttempt(
        _ call: inout Call,
        _ state: inout AttemptState,
        _ authenticator: (any RequestAuthenticating)?,
        _ total: Duration?
    ) async throws(CourierError) -> AttemptEnd {
        var refreshes = 0
        if let authenticator {
            let before = call.request.headers
            do {
                refreshes = try await authenticator.authenticate(&call.request)
            } catch {
                throw state.record.attach(Self.authenticationError(error, call.request))
            }
            for field in call.request.headers where !before.contains(field) { call.secretHeaders.insert(field.name) }
        }
        let span = call.observer?.beginAttempt(call.request.attempt, &call.request)
        var outcome: Result<Reply, CourierError>
        do {
            outcome = .success(try await RequestObserver.within(span) { () async throws(CourierError) in try await exchange(call) })
        } catch {
            outcome = .failure(error)
        }
        // What follows is decided on the head, before the body is read: the body of a reply that
        // another attempt follows is read without progress, so that progress describes the body
        // the caller gets. A body that then fails is decided on again, as the failure it is. A
        // body the transport read whole, or one the call streams, has nothing left to read here.
        var end = follow(outcome, of: call, &state, authenticator, refreshes: refreshes, total: total)
        if case .success(let reply) = outcome, Self.hasBodyToRead(reply, call) {
            do {
                outcome = .success(try await RequestObserver.within(span) { () async throws(CourierError) in
                    var read = reply
                    try await self.readStream(&read, of: call, counting: end == nil)
                    return read
                })
            } catch {
                outcome = .failure(error)
                if end == nil {
                    state.record.stoppedBecause = nil
                    end = follow(outcome, of: call, &state, authenticator, refreshes: refreshes, total: total)
                }
            }
        }
        let status = outcome.success?.head.status
        call.observer?.endAttempt(span, status: status, failure: outcome.failure)
        guard let end else {
            return .finished(try state.record.finish(outcome, attempt: call.request.attempt, status: status).0)
        }
        return end
    }

    /// Whether another attempt follows `outcome`, and after what: a refreshed credential, when
    /// the server refused the one applied (once per call), or a wait, when the retry policy
    /// retries it and the bounds and the budget allow. `nil` when the outcome is the call's, with
    /// why it was not retried in the record.
    private func follow(
        _ outcome: Result<Reply, CourierError>,
        of call: Call,
        _ state: inout AttemptState,
        _ authenticator: (any RequestAuthenticating)?,
        refreshes: Int,
        total: Duration?
    ) -> AttemptEnd? {
        let number = call.request.attempt
        let head = outcome.success?.head
        if let authenticator, !state.refreshed, let head, authenticator.isAuthenticationFailure(head.message) {
            state.refreshed = true
            state.append(number, status: head.status)
            guard call.request.payload?.isReplayable != false else {
                // Not sent again; the refresh still happens, for the requests that follow.
                Task { [refreshes] in try? await authenticator.refresh(after: refreshes) }
                state.record.stoppedBecause = "the credential was refused, and the request body can be read only once, so it was not sent again"
                return nil
            }
            return .refresh(after: refreshes)
        }
        guard let policy = call.retryPolicy, policy.retries, let notSent = policy.verdict(on: outcome, head: head, call.request) else { return nil }
        switch retryWait(after: call.request, head: head, notSent: notSent, policy: policy, elapsed: state.elapsed, total: total) {
        case .stop(let reason):
            state.record.stoppedBecause = reason
            return nil
        case .wait(let wait):
            state.append(number, status: head?.status, failure: outcome.failure, wait: wait)
            return .wait(wait)
        }
    }
}
