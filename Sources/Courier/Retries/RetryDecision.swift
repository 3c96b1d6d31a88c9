import CourierWire
import Foundation
import HTTPTypes

extension RetryPolicy {
    /// Whether `outcome` is a failure the policy retries: `nil` when it is not, and otherwise
    /// whether the request is known not to have been sent. The head's fields are read only for a
    /// predicate of the user's.
    func verdict<Outcome>(
        on outcome: Result<Outcome, CourierError>,
        head: ResponseHead?,
        _ request: RawRequest
    ) -> Bool? {
        switch outcome {
        case .success:
            guard let head else { return nil }
            if statuses.contains(head.status.code) { return false }
            guard let retryIf else { return nil }
            return retryIf(RetryContext(attempt: request.attempt, request: request, response: head.message, error: nil)) ? false : nil
        case .failure(let error):
            switch error.kind {
            case .transport, .timeout:
                return error.underlyingError.map(PipelineErrors.isNotSent) ?? false
            case .cancelled, .tls, .tlsConfiguration, .proxy, .insecureRedirect:
                // A certificate or a pin does not change between attempts.
                return nil
            default:
                guard let retryIf else { return nil }
                return retryIf(RetryContext(attempt: request.attempt, request: request, response: nil, error: error)) ? false : nil
            }
        }
    }
}

extension Provider {
    /// How long to wait before the next attempt, or why there is none.
    func retryWait(
        after request: RawRequest,
        head: ResponseHead?,
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
        if let value = head?.headerFields[.retryAfter], let asked = RetryAfter.parse(value, now: Date()) {
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
}

/// The wait before the next attempt, or why there is none.
enum RetryStep {
    case wait(Duration)
    case stop(String)
}
