/// How a request uses its provider's ``HTTPCache``.
public enum CachePolicy: Sendable, Hashable {
    /// As HTTP caching says (RFC 9111): a fresh stored response is returned without asking the
    /// server, a stale one is revalidated, and the server's answer is stored where it allows.
    case useProtocol
    /// From the server, the cache not read; the answer is stored where the server allows.
    case reload
    /// A stored response, fresh or stale, without asking the server; from the server only when
    /// none is stored.
    case returnCacheElseLoad
    /// A stored response, fresh or stale, without asking the server; when none is stored, a
    /// `504 Gateway Timeout` made by the cache (RFC 9111 §5.2.1.7), which fails as a status.
    case onlyIfCached
}

/// Where a response came from, when its provider has an ``HTTPCache``: ``Response/cache``.
public enum CacheOutcome: Sendable, Hashable {
    /// From the server; nothing stored could answer (the response may have been stored now).
    case miss
    /// From the cache, fresh, without asking the server; `age` is its age (RFC 9111 §4.2.3).
    case hit(age: Duration)
    /// From the cache, after the server confirmed it with `304 Not Modified`.
    case revalidated
    /// From the cache, stale — allowed by the request's `max-stale`, the response's
    /// `stale-while-revalidate` or `stale-if-error`, or the request's ``CachePolicy``.
    case stale(age: Duration)
    /// Made by the cache itself, without asking the server: a `504 Gateway Timeout`, because the
    /// request allowed only a stored response (``CachePolicy/onlyIfCached`` or `only-if-cached`)
    /// and none was stored (RFC 9111 §5.2.1.7).
    case unavailable

    /// The outcome as spans, metrics and logs name it.
    var name: String {
        switch self {
        case .miss: "miss"
        case .hit: "hit"
        case .revalidated: "revalidated"
        case .stale: "stale"
        case .unavailable: "unavailable"
        }
    }
}
