import Foundation
import HTTPTypes
import OpenAPIRuntime

extension Provider {
    /// Sends `raw` through `perform` once, or as often as `policy` and the authenticator allow;
    /// returns the last outcome with the account of the attempts, to be attached to an error the
    /// caller finds in it (a status, say).
    ///
    /// `status` reads the status of an outcome. An outcome that is not retried and not returned
    /// — a response that is followed by another attempt — is dropped, which closes its body.
    func attempting<Outcome: Sendable>(
        _ raw: RawRequest,
        policy: RetryPolicy,
        authenticator: (any RequestAuthenticating)?,
        total: Duration?,
        perform: @Sendable (RawRequest) async throws(CourierError) -> Outcome,
        head: (Outcome) -> HTTPResponse
    ) async throws(CourierError) -> (Outcome, RetryRecord) {
        var request = raw
        if policy.addsIdempotencyKey, request.method == .post || request.method == .patch, request.headers[.idempotencyKey] == nil {
            request.headers[.idempotencyKey] = UUID().uuidString
        }
        if policy.retries { retryBudget?.deposit() }
        let elapsed = policy.retries && total != nil ? clock.stopwatch() : nil
        var record = RetryRecord()
        var refreshed = false
        var number = 0
        while true {
            number += 1
            request.attempt = number
            var refreshes = 0
            if let authenticator {
                let before = request.headers
                do {
                    refreshes = try await authenticator.authenticate(&request)
                } catch {
                    throw record.attach(Self.authenticationError(error, request))
                }
                for field in request.headers where !before.contains(field) { request.secretHeaders.insert(field.name) }
            }
            let outcome: Result<Outcome, CourierError>
            do {
                outcome = .success(try await perform(request))
            } catch {
                outcome = .failure(error)
            }
            let status: HTTPResponse? =
                switch outcome {
                case .success(let value): head(value)
                case .failure: nil
                }

            if let authenticator, !refreshed, let status, authenticator.isAuthenticationFailure(status) {
                refreshed = true
                record.append(request.attempt, status: status.status)
                do {
                    try await authenticator.refresh(after: refreshes)
                } catch {
                    throw record.attach(Self.authenticationError(error, request))
                }
                if request.body?.iterationBehavior == .single, case .success(let response) = outcome {
                    record.stoppedBecause = "the credential was refreshed, but the request body can be read only once"
                    return (response, record)
                }
                continue
            }

            guard policy.retries, let verdict = verdict(on: outcome, status: status, request, policy) else {
                return try record.finish(outcome, attempt: request.attempt, status: status?.status)
            }
            let wait: Duration
            switch retryWait(after: request, status: status, notSent: verdict, policy: policy, elapsed: elapsed, total: total) {
            case .stop(let reason):
                record.stoppedBecause = reason
                return try record.finish(outcome, attempt: request.attempt, status: status?.status)
            case .wait(let duration):
                wait = duration
            }
            record.append(request.attempt, status: status?.status, failure: outcome.failure, wait: wait)
            do {
                try await clock.wait(wait)
            } catch {
                throw record.attach(CourierError(.cancelled(error), operationID: request.operationID, request: request))
            }
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
        if request.body?.iterationBehavior == .single {
            return .stop("the request body can be read only once, so it cannot be sent again")
        }
        var wait = policy.jitter.draw(policy.ceiling(after: request.attempt))
        if let value = status?.headerFields[.retryAfter] {
            guard let asked = RetryAfter.parse(value, now: Date()) else {
                return .stop("the server's Retry-After '\(value)' is neither a number of seconds nor an HTTP date")
            }
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

    static func authenticationError(_ error: any Error, _ request: RawRequest) -> CourierError {
        if let error = error as? CourierError { return error.with(operationID: request.operationID, request: request) }
        if PipelineErrors.isCancellation(error) { return CourierError(.cancelled(error), operationID: request.operationID, request: request) }
        return CourierError(.refreshFailed(error), operationID: request.operationID, request: request)
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
        let trimmed = value.trimmingCharacters(in: .whitespaces)
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
