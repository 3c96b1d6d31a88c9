public import HTTPTypes

/// When a failed request is sent again, and how long Courier waits first.
///
/// A provider's ``Provider/retryPolicy`` applies to every request it sends; a request overrides
/// it — the fluent ``Request/retry(_:)``, an `@API` function's or protocol's `@Retry(...)`, an
/// ``Endpoint``'s ``Endpoint/retryPolicy-swift.property``, or a modifier setting
/// ``RequestBuilder/retryPolicy``. Providers start with ``disabled``.
///
/// ```swift
/// var provider = Provider(baseURL: "https://api.example.com")
/// provider.retryPolicy = .standard
/// let upload = Request(.post, "/uploads", receiving: .data).retry(.disabled)
/// ```
///
/// A failure is retried only when all of these hold:
/// - It is a connection failure, a timeout, a transport failure, a status in ``statuses``, or a
///   failure ``retryIf`` accepts.
/// - Sending it again is safe: nothing of the request was sent (a connection that could not be
///   opened), or its method is idempotent (`GET`, `HEAD`, `OPTIONS`, `TRACE`, `PUT`, `DELETE`), or
///   it carries an `Idempotency-Key` header (``addsIdempotencyKey`` gives `POST` and `PATCH` one).
/// - Its body can be sent again: a body that can be read only once is never re-sent.
/// - Attempts remain (``maxAttempts``), the wait ends inside the request's
///   ``Timeouts/total``, a `Retry-After` asks for no more than ``maxRetryAfter``, and the
///   provider's ``RetryBudget`` has room.
///
/// Otherwise the last failure is returned at once; its ``CourierError/attempts`` lists every
/// attempt and ``CourierError/retryStoppedBecause`` says why no further one was made.
///
/// The wait before retry *n* is `Retry-After` when the response carries one, and otherwise a
/// random duration between zero and `min(maxDelay, baseDelay × 2ⁿ⁻¹)` ("full jitter"), so that
/// clients that failed together do not come back together.
public struct RetryPolicy: Sendable {
    /// The most attempts, the first one included: `1` never retries.
    public var maxAttempts: Int {
        get { box.value.maxAttempts }
        set { box.value.maxAttempts = newValue }
    }
    /// The ceiling of the first wait, doubled for each later one.
    public var baseDelay: Duration {
        get { box.value.baseDelay }
        set { box.value.baseDelay = newValue }
    }
    /// The most any computed wait lasts.
    public var maxDelay: Duration {
        get { box.value.maxDelay }
        set { box.value.maxDelay = newValue }
    }
    /// How a wait is drawn below its ceiling.
    public var jitter: Jitter {
        get { box.value.jitter }
        set { box.value.jitter = newValue }
    }
    /// The longest `Retry-After` that is waited for; a server asking for longer gets its answer
    /// returned at once rather than a retry sooner than it asked.
    public var maxRetryAfter: Duration {
        get { box.value.maxRetryAfter }
        set { box.value.maxRetryAfter = newValue }
    }
    /// The statuses that are retried: 408, 429, 502, 503 and 504 unless you choose others.
    public var statuses: Set<Int> {
        get { box.value.statuses }
        set { box.value.statuses = newValue }
    }
    /// Whether a `POST` or `PATCH` without an `Idempotency-Key` header is given a fresh one (a
    /// UUID, the same for all its attempts), which makes it safe to retry for a server that
    /// honours the header.
    public var addsIdempotencyKey: Bool {
        get { box.value.addsIdempotencyKey }
        set { box.value.addsIdempotencyKey = newValue }
    }
    /// Failures you want retried besides the ones above, such as a `500` from a server you know
    /// to be flaky. The safety rules (idempotency, a replayable body, the budget) still apply.
    public var retryIf: (@Sendable (RetryContext) -> Bool)? {
        get { box.value.retryIf }
        set { box.value.retryIf = newValue }
    }

    /// The settings above behind one reference, made when the policy is: a policy is copied into
    /// every call, and kept there as one word.
    private var box: Frozen<Values>

    private struct Values: Sendable {
        var maxAttempts: Int
        var baseDelay: Duration
        var maxDelay: Duration
        var jitter: Jitter
        var maxRetryAfter: Duration
        var statuses: Set<Int>
        var addsIdempotencyKey: Bool
        var retryIf: (@Sendable (RetryContext) -> Bool)?
    }

    /// A policy; the defaults are ``standard``'s.
    public init(
        maxAttempts: Int = 3,
        baseDelay: Duration = .milliseconds(200),
        maxDelay: Duration = .seconds(10),
        jitter: Jitter = .full,
        maxRetryAfter: Duration = .seconds(30),
        statuses: Set<Int> = [408, 429, 502, 503, 504],
        addsIdempotencyKey: Bool = false,
        retryIf: (@Sendable (RetryContext) -> Bool)? = nil
    ) {
        // Out-of-range values are read as the nearest sensible ones: at least one attempt, no
        // negative wait.
        box = Frozen(
            Values(
                maxAttempts: max(maxAttempts, 1), baseDelay: max(baseDelay, .zero), maxDelay: max(maxDelay, .zero), jitter: jitter,
                maxRetryAfter: max(maxRetryAfter, .zero), statuses: statuses, addsIdempotencyKey: addsIdempotencyKey, retryIf: retryIf
            )
        )
    }

    /// Three attempts, waits of up to 200 ms and then 400 ms (full jitter, capped at 10 s), a
    /// `Retry-After` of up to 30 s honoured, statuses 408, 429, 502, 503 and 504.
    public static let standard = RetryPolicy()

    /// One attempt: nothing is retried.
    public static let disabled = RetryPolicy(maxAttempts: 1)

    /// Whether this policy can retry at all.
    var retries: Bool { maxAttempts > 1 }

    /// Whether this policy changes anything about a call: it retries, or adds an
    /// `Idempotency-Key`.
    var acts: Bool { retries || addsIdempotencyKey }

    /// How a wait is drawn below its ceiling.
    public struct Jitter: Sendable {
        let draw: @Sendable (Duration) -> Duration

        /// A uniformly random wait between zero and the ceiling: AWS's "full jitter", which
        /// spreads clients that failed together the most.
        public static let full = Jitter { ceiling in
            let nanoseconds = ceiling.nanoseconds
            return nanoseconds > 0 ? .nanoseconds(Int64.random(in: 0...nanoseconds)) : .zero
        }

        /// The ceiling itself: exact, predictable waits (for tests, or a single client).
        public static let none = Jitter { $0 }
    }

    /// The ceiling of the wait before attempt `attempt + 1`: `baseDelay × 2^(attempt − 1)`,
    /// at most ``maxDelay``.
    func ceiling(after attempt: Int) -> Duration {
        let doublings = min(max(attempt - 1, 0), 62)
        let base = baseDelay.nanoseconds
        let limit = max(maxDelay.nanoseconds, 0)
        guard base > 0 else { return .zero }
        let (scaled, overflow) = base.multipliedReportingOverflow(by: Int64(1) << doublings)
        return .nanoseconds(overflow ? limit : min(scaled, limit))
    }

    /// The idempotent methods (RFC 9110 §9.2.2): sending one twice has the effect of sending it
    /// once.
    static let idempotentMethods: Set<HTTPRequest.Method> = [.get, .head, .options, .trace, .put, .delete]
}

/// A failed attempt, as ``RetryPolicy/retryIf`` sees it.
public struct RetryContext: Sendable {
    /// The attempt that failed, from 1.
    public let attempt: Int
    /// The request as it was sent.
    public let request: RawRequest
    /// The response's head, when one arrived.
    public let response: HTTPResponse?
    /// The failure, when no response arrived.
    public let error: CourierError?
}

extension Duration {
    /// The duration in whole nanoseconds, saturating.
    var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        if overflow { return seconds < 0 ? .min : .max }
        return scaled.addingReportingOverflow(attoseconds / 1_000_000_000).overflow ? .max : scaled + attoseconds / 1_000_000_000
    }
}
