import Foundation
import HTTPTypes
import OpenAPIRuntime

extension Provider {
    /// Sends `raw` once, or as often as `policy` and the authenticator allow, each time as
    /// `Outcome` sends; returns the last outcome with the account of the attempts, to be attached
    /// to an error the caller finds in it (a status, say). `progress`, when given, holds the
    /// account as it grows, for an error that ends the sequence from outside (the total timeout,
    /// cancellation).
    ///
    /// An outcome that is followed by another attempt is dropped before the wait or the refresh,
    /// which closes its body and frees its connection.
    func attempting<Outcome: AttemptOutcome>(
        _ raw: RawRequest,
        policy: RetryPolicy,
        authenticator: (any RequestAuthenticating)?,
        total: Duration?,
        progress: Locked<RetryRecord>?,
        as _: Outcome.Type
    ) async throws(CourierError) -> (Outcome, RetryRecord) {
        var request = raw
        if policy.addsIdempotencyKey, request.method == .post || request.method == .patch, request.headers[.idempotencyKey] == nil {
            request.headers[.idempotencyKey] = UUID().uuidString
        }
        if policy.retries { retryBudget?.deposit() }
        var state = AttemptState(elapsed: policy.retries && total != nil ? clock.stopwatch() : nil, progress: progress)
        while true {
            state.number += 1
            request.attempt = state.number
            switch try await attempt(&request, &state, policy, authenticator, total, as: Outcome.self) {
            case .finished(let outcome):
                return (outcome, state.record)
            case .refresh(let refreshes):
                // The refused response is gone; its connection is free for the refresh.
                request.observer?.refreshing()
                do {
                    try await authenticator?.refresh(after: refreshes)
                } catch {
                    throw state.record.attach(Self.authenticationError(error, request))
                }
            case .wait(let wait):
                request.observer?.retrying()
                do {
                    try await clock.wait(wait)
                } catch {
                    throw state.record.attach(CourierError(.cancelled(error), operationID: request.operationID, request: request))
                }
            }
        }
    }

    /// What the retry loop keeps between attempts.
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
    private enum AttemptEnd<Outcome> {
        /// The outcome to return (or to throw, as the record's `finish` did).
        case finished(Outcome)
        /// Refresh the credential, then send again.
        case refresh(after: Int)
        /// Wait, then send again.
        case wait(Duration)
    }

    /// One attempt of `request`, and what follows it. The outcome lives only here, so that a
    /// response that is not returned is released before the loop waits or refreshes.
    private func attempt<Outcome: AttemptOutcome>(
        _ request: inout RawRequest,
        _ state: inout AttemptState,
        _ policy: RetryPolicy,
        _ authenticator: (any RequestAuthenticating)?,
        _ total: Duration?,
        as _: Outcome.Type
    ) async throws(CourierError) -> AttemptEnd<Outcome> {
        var refreshes = 0
        if let authenticator {
            let before = request.headers
            do {
                refreshes = try await authenticator.authenticate(&request)
            } catch {
                throw state.record.attach(Self.authenticationError(error, request))
            }
            for field in request.headers where !before.contains(field) { request.secretHeaders.insert(field.name) }
        }
        let span = request.observer?.beginAttempt(request.attempt, &request)
        let outcome: Result<Outcome, CourierError>
        do {
            outcome = .success(try await RequestObserver.within(span) { () async throws(CourierError) in try await Outcome.exchange(request, on: self) })
        } catch {
            outcome = .failure(error)
        }
        let status: HTTPResponse? =
            switch outcome {
            case .success(let value): value.head
            case .failure: nil
            }
        request.observer?.endAttempt(span, status: status?.status, failure: outcome.failure)

        if let authenticator, !state.refreshed, let status, authenticator.isAuthenticationFailure(status) {
            state.refreshed = true
            state.append(request.attempt, status: status.status)
            if request.payload?.isReplayable == false {
                // Not sent again; the refresh still happens, for the requests that follow.
                Task { [refreshes] in try? await authenticator.refresh(after: refreshes) }
                state.record.stoppedBecause = "the credential was refused, and the request body can be read only once, so it was not sent again"
                return .finished(try state.record.finish(outcome, attempt: request.attempt, status: status.status).0)
            }
            return .refresh(after: refreshes)
        }

        guard policy.retries, let verdict = verdict(on: outcome, status: status, request, policy) else {
            return .finished(try state.record.finish(outcome, attempt: request.attempt, status: status?.status).0)
        }
        switch retryWait(after: request, status: status, notSent: verdict, policy: policy, elapsed: state.elapsed, total: total) {
        case .stop(let reason):
            state.record.stoppedBecause = reason
            return .finished(try state.record.finish(outcome, attempt: request.attempt, status: status?.status).0)
        case .wait(let wait):
            state.append(request.attempt, status: status?.status, failure: outcome.failure, wait: wait)
            return .wait(wait)
        }
    }

    /// Whether `outcome` is a failure the policy retries: `nil` when it is not, and otherwise
    /// whether the request is known not to have been sent.
    private func verdict<Outcome>(
        on outcome: Result<Outcome, CourierError>,
        status: HTTPResponse?,
        _ request: RawRequest,
        _ policy: RetryPolicy
    ) -> Bool? {
        switch outcome {
        case .success:
            guard let status else { return nil }
            if policy.statuses.contains(status.status.code) { return false }
            guard let retryIf = policy.retryIf else { return nil }
            return retryIf(RetryContext(attempt: request.attempt, request: request, response: status, error: nil)) ? false : nil
        case .failure(let error):
            switch error.kind {
            case .transport, .timeout:
                return error.underlyingError.map(PipelineErrors.isNotSent) ?? false
            case .cancelled:
                return nil
            default:
                guard let retryIf = policy.retryIf else { return nil }
                return retryIf(RetryContext(attempt: request.attempt, request: request, response: nil, error: error)) ? false : nil
            }
        }
    }

    /// How long to wait before the next attempt, or why there is none.
    private func retryWait(
        after request: RawRequest,
        status: HTTPResponse?,
        notSent: Bool,
        policy: RetryPolicy,
        elapsed: (@Sendable () -> Duration)?,
        total: Duration?
    ) -> RetryStep {
        if request.attempt >= policy.maxAttempts {
            return .stop("the policy allows \(policy.maxAttempts) attempts")
        }
        if !notSent, !RetryPolicy.idempotentMethods.contains(request.method), request.headers[.idempotencyKey] == nil {
            return .stop("\(request.method) is not idempotent and may have reached the server; an Idempotency-Key header would make it safe to retry")
        }
        if request.payload?.isReplayable == false {
            return .stop("the request body can be read only once, so it cannot be sent again")
        }
        let ceiling = policy.ceiling(after: request.attempt)
        var wait = min(max(policy.jitter.draw(ceiling), .zero), ceiling)
        // A `Retry-After` that is neither form is ignored (RFC 9110 §10.2.3): the backoff applies.
        if let value = status?.headerFields[.retryAfter], let asked = RetryAfter.parse(value, now: Date()) {
            guard asked <= policy.maxRetryAfter else {
                return .stop("the server asked to wait \(asked), longer than the policy's maxRetryAfter of \(policy.maxRetryAfter)")
            }
            wait = asked
        }
        if let total, let elapsed, elapsed() + wait >= total {
            return .stop("waiting \(wait) would pass the request's total timeout of \(total)")
        }
        if let retryBudget, !retryBudget.withdraw() {
            return .stop("the provider's retry budget is spent")
        }
        return .wait(wait)
    }

    /// The provider's authenticator when it applies to `request`: one to the base URL's origin,
    /// not sent by the authenticator's own refresh.
    func authenticator(for request: RawRequest) -> (any RequestAuthenticating)? {
        guard let authenticator, !authenticator.isRefreshingHere, let base = baseURL, Origin(base) == Origin(request.baseURL) else { return nil }
        return authenticator
    }

    /// The error of a request whose credential could not be had: cancelled when the request
    /// itself was, and otherwise ``CourierError/Kind/authentication`` carrying the refresh's
    /// error — whatever it was, a failed request to a token endpoint included.
    static func authenticationError(_ error: any Error, _ request: RawRequest) -> CourierError {
        if Task.isCancelled { return CourierError(.cancelled(error), operationID: request.operationID, request: request) }
        return CourierError(.refreshFailed(error), operationID: request.operationID, request: request)
    }
}

/// What one attempt gives, and how it is sent: a response read whole, or a head with its body
/// still arriving. The retry loop calls the provider through it, so that no closure over a copy
/// of the provider is made per request.
protocol AttemptOutcome: Sendable {
    /// Sends `request` once through `provider`'s middleware chain and transport.
    static func exchange(_ request: RawRequest, on provider: Provider) async throws(CourierError) -> Self
    /// The response's head.
    var head: HTTPResponse { get }
}

extension Response: AttemptOutcome {
    static func exchange(_ request: RawRequest, on provider: Provider) async throws(CourierError) -> Response {
        try await provider.execute(request)
    }
}

/// A response whose body has not been read.
struct StreamingOutcome: AttemptOutcome {
    let head: HTTPResponse
    let body: HTTPBody?

    static func exchange(_ request: RawRequest, on provider: Provider) async throws(CourierError) -> StreamingOutcome {
        let (head, body) = try await provider.executeStreaming(request)
        return StreamingOutcome(head: head, body: body)
    }
}

/// The wait before the next attempt, or why there is none.
enum RetryStep {
    case wait(Duration)
    case stop(String)
}

/// The attempts of one request so far, and why the last was not retried.
struct RetryRecord: Sendable {
    var attempts: [CourierError.Attempt] = []
    var stoppedBecause: String?

    mutating func append(_ number: Int, status: HTTPResponse.Status?, failure: CourierError? = nil, wait: Duration? = nil) {
        let outcome: String
        var kind: CourierError.Kind?
        if let status {
            outcome = "\(status.code) \(status.displayPhrase)"
        } else if let error = failure {
            kind = error.kind
            outcome = "\(error.kind): \(error.message)"
        } else {
            outcome = "no response"
        }
        attempts.append(CourierError.Attempt(number: number, status: status, failure: kind, outcome: outcome, wait: wait))
    }

    /// The last outcome, recorded: returned when it is a response, thrown when it is a failure.
    mutating func finish<Outcome>(_ outcome: Result<Outcome, CourierError>, attempt: Int, status: HTTPResponse.Status?) throws(CourierError) -> (Outcome, RetryRecord) {
        if attempts.isEmpty && stoppedBecause == nil {
            return (try outcome.get(), self)
        }
        append(attempt, status: status, failure: outcome.failure)
        switch outcome {
        case .success(let value): return (value, self)
        case .failure(let error): throw attach(error)
        }
    }

    /// `error` with these attempts, when there is more than the one that made it.
    func attach(_ error: CourierError) -> CourierError {
        attempts.isEmpty && stoppedBecause == nil ? error : error.with(attempts: attempts, stoppedBecause: stoppedBecause)
    }
}

extension Result {
    /// The error, when this is a failure.
    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}

/// `Retry-After` (RFC 9110 §10.2.3): a number of seconds, or an HTTP date.
enum RetryAfter {
    /// The wait `value` asks for, never negative; `nil` when it is neither form.
    static func parse(_ value: String, now: Date) -> Duration? {
        let trimmed = value.trimmingWhitespace()
        guard let first = trimmed.utf8.first else { return nil }
        if trimmed.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) {
            // Any number of digits: a huge one saturates rather than failing.
            return .seconds(Int64(trimmed) ?? .max)
        }
        guard first >= UInt8(ascii: "A"), let date = Date(headerValue: trimmed) else { return nil }
        let seconds = date.timeIntervalSince(now)
        guard seconds > 0 else { return .zero }
        return seconds < 1e12 ? .milliseconds(Int64(seconds * 1000)) : .seconds(Int64(1e12))
    }
}

extension Clock where Duration == Swift.Duration {
    /// The time since now, on this clock.
    func stopwatch() -> @Sendable () -> Swift.Duration {
        let start = now
        return { start.duration(to: self.now) }
    }

    /// Waits `duration` on this clock; throws when the task is cancelled.
    func wait(_ duration: Swift.Duration) async throws {
        try await sleep(until: now.advanced(by: duration), tolerance: nil)
    }
}

extension HTTPField.Name {
    /// `Idempotency-Key` (draft-ietf-httpapi-idempotency-key-header).
    // A valid token written here, so the initializer cannot fail.
    static let idempotencyKey = HTTPField.Name("Idempotency-Key")!
}
