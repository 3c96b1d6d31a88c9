import Foundation
import HTTPTypes

extension Provider {
    /// The cache stage, around the attempts: with an ``HTTPCache``, a `GET` read whole is answered
    /// from it when the stored response may be used (RFC 9111 §4), is sent with its validators
    /// when a stored one must be revalidated, and its answer is stored where the server allows.
    /// An unsafe request that succeeds removes what it changed. Without a cache, or for any other
    /// call, the attempts alone. The common call — no cache, sent once, without a total bound —
    /// is one attempt, inlined here; every other goes through one function of its own, so that
    /// the frame of the common call holds one reply, not one for each way of making it.
    @inline(__always)
    nonisolated(nonsending) func cached(_ call: Call) async throws(CourierError) -> (Reply, RetryRecord) {
        if cache == nil, call.total == nil, !Self.repeats(call, authenticator(for: call.request)) {
            return (try await attempt(call), RetryRecord())
        }
        return try await cachedOrAttempted(call)
    }

    /// ``cached(_:)`` for any call but the common one.
    @inline(never)
    private nonisolated(nonsending) func cachedOrAttempted(_ call: Call) async throws(CourierError) -> (Reply, RetryRecord) {
        guard let cache else { return try await attempts(call) }
        return try await cached(call, in: cache)
    }

    /// The cache stage of a provider with `cache`.
    private nonisolated(nonsending) func cached(_ call: Call, in cache: HTTPCache) async throws(CourierError) -> (Reply, RetryRecord) {
        let request = call.request
        guard request.method == .get, !call.streams, !Self.isConditional(request.headers) else {
            let result = try await attempts(call)
            if !Self.safeMethods.contains(request.method) { invalidate(cache, after: result.0, key: Self.key(of: request)) }
            return result
        }
        let key = Self.key(of: request)
        let asked = CacheControl(request.headers)
        let policy = asked.onlyIfCached ? .onlyIfCached : call.cachePolicy
        let stored = policy == .reload ? nil : cache.lookup(key, request.headers)
        var revalidating: CachedResponse?
        if let stored {
            let now = cache.now()
            let age = stored.age(at: now)
            let control = stored.control
            let lifetime = stored.freshnessLifetime(cap: cache.heuristicCap)
            switch policy {
            case .returnCacheElseLoad, .onlyIfCached:
                return await answeredLocally(Self.answer(stored, request, age: age, outcome: age < lifetime ? .hit(age: .seconds(age)) : .stale(age: .seconds(age))))
            case .useProtocol, .reload:
                // (`.reload` never reaches here: it reads nothing stored.)
                if !asked.noCache, !control.noCache, Self.isFresh(age: age, lifetime: lifetime, asked: asked) {
                    return await answeredLocally(Self.answer(stored, request, age: age, outcome: .hit(age: .seconds(age))))
                }
                let staleness = age - lifetime
                if !asked.noCache, !control.noCache, !control.mustRevalidate, staleness > 0 {
                    var allowed = false
                    switch asked.maxStale {
                    case .any: allowed = true
                    case .seconds(let bound): allowed = staleness <= TimeInterval(bound)
                    case nil: break
                    }
                    if allowed { return await answeredLocally(Self.answer(stored, request, age: age, outcome: .stale(age: .seconds(age)))) }
                    if let window = control.staleWhileRevalidate, staleness <= TimeInterval(window) {
                        // One revalidation at a time: a request while it runs gets the stale response too.
                        if cache.beginRevalidating(key) { revalidateInBackground(call, stored, asked: asked, cache) }
                        return await answeredLocally(Self.answer(stored, request, age: age, outcome: .stale(age: .seconds(age))))
                    }
                }
                revalidating = stored
            }
        } else if policy == .onlyIfCached {
            let head = HTTPResponse(status: .gatewayTimeout, headerFields: [.contentLength: "0"])
            var reply = Reply(head: head, body: .whole(nil), request: request)
            reply.cache = .unavailable
            return (reply, RetryRecord())
        }
        return try await load(call, key: key, asked: asked, revalidating: revalidating, cache)
    }


    /// `reply`, answered from the cache without sending anything. Interceptors see only what is
    /// sent; the ones that log requests are told of this one too.
    private nonisolated(nonsending) func answeredLocally(_ reply: Reply) async -> (Reply, RetryRecord) {
        if let outcome = reply.cache, !stages.isEmpty {
            for stage in stages {
                await stage.callAware?.answeredFromCache(reply.request, status: reply.head.status.code, outcome: outcome)
            }
        }
        return (reply, RetryRecord())
    }

    /// Sends `call` — conditionally, when `stored` has validators — and stores what the server
    /// allows; a `304` returns `stored` updated, and a failure that `stale-if-error` covers
    /// returns `stored` as it is.
    private nonisolated(nonsending) func load(_ call: Call, key: String, asked: CacheControl, revalidating stored: CachedResponse?, _ cache: HTTPCache) async throws(CourierError) -> (Reply, RetryRecord) {
        var sent = call
        // A response is stored under the target of the request that produced it (RFC 9111 §2):
        // after redirects, the last hop's.
        let target = Locked<String?>(nil)
        sent.redirectTarget = target
        if let stored {
            if let tag = stored.head.headerFields[.eTag] { sent.request.headers[.ifNoneMatch] = tag }
            if let modified = stored.head.headerFields[.lastModified] { sent.request.headers[.ifModifiedSince] = modified }
        }
        let requestTime = cache.now()
        let result: (Reply, RetryRecord)
        do {
            result = try await attempts(sent)
        } catch {
            if let stale = staleIfError(stored, cache, call.request) { return (stale, RetryRecord()) }
            throw error
        }
        var (reply, record) = result
        let responseTime = cache.now()
        if reply.head.status.code == 304, let stored, target.withLock({ $0 }) == nil {
            let updated = stored.updated(by: reply.head.message, requestTime: requestTime, responseTime: responseTime)
            if !asked.noStore { cache.store(updated) }
            return (Self.answer(updated, reply.request, age: updated.age(at: responseTime), outcome: .revalidated), record)
        }
        if reply.head.status.code >= 500, let stale = staleIfError(stored, cache, call.request) { return (stale, record) }
        if let redirected = target.withLock({ $0 }) {
            // Followed elsewhere: what came back answers the last hop's target, not `key`.
            if let entry = Self.storable(reply, key: redirected, asked: asked, requestTime: requestTime, responseTime: responseTime) {
                cache.store(entry)
            }
        } else if let entry = Self.storable(reply, key: key, asked: asked, requestTime: requestTime, responseTime: responseTime) {
            cache.store(entry)
        }
        reply.cache = .miss
        return (reply, record)
    }

    /// Revalidates `stored` once, off the caller's path, and stores the result.
    private func revalidateInBackground(_ call: Call, _ stored: CachedResponse, asked: CacheControl, _ cache: HTTPCache) {
        var quiet = call
        quiet.observer = nil
        Task {
            defer { cache.endRevalidating(stored.key) }
            _ = try? await self.load(quiet, key: stored.key, asked: asked, revalidating: stored, cache)
        }
    }

    /// `stored`, stale, when its `stale-if-error` covers its staleness and nothing forbids it.
    private func staleIfError(_ stored: CachedResponse?, _ cache: HTTPCache, _ request: RawRequest) -> Reply? {
        guard let stored, let window = stored.control.staleIfError, !stored.control.mustRevalidate else { return nil }
        let age = stored.age(at: cache.now())
        guard age - stored.freshnessLifetime(cap: cache.heuristicCap) <= TimeInterval(window) else { return nil }
        return Self.answer(stored, request, age: age, outcome: .stale(age: .seconds(age)))
    }

    /// Whether a stored response `age` seconds old, fresh for `lifetime`, satisfies the request's
    /// own bounds (`max-age`, `min-fresh`).
    private static func isFresh(age: TimeInterval, lifetime: TimeInterval, asked: CacheControl) -> Bool {
        guard age < lifetime else { return false }
        if let maxAge = asked.maxAge, age > TimeInterval(maxAge) { return false }
        if let minFresh = asked.minFresh, lifetime - age < TimeInterval(minFresh) { return false }
        return true
    }

    private static func answer(_ stored: CachedResponse, _ request: RawRequest, age: TimeInterval, outcome: CacheOutcome) -> Reply {
        var reply = Reply(head: stored.returned(age: age), body: .whole(stored.body), request: request)
        reply.cache = outcome
        return reply
    }

    /// The entry to store for `reply`, when RFC 9111 §3 allows storing it.
    private static func storable(_ reply: Reply, key: String, asked: CacheControl, requestTime: Date, responseTime: Date) -> CachedResponse? {
        let head = reply.head.message
        let control = CacheControl(head.headerFields)
        guard !asked.noStore, !control.noStore, case .whole(let data) = reply.body, !CachedResponse.varyNames(head).contains("*") else {
            return nil
        }
        // A response to a request with credentials only where the server says it may be reused.
        if reply.request.headers[.authorization] != nil, !control.isPublic, !control.mustRevalidate { return nil }
        let explicit = control.maxAge != nil || head.headerFields[.expires] != nil || control.isPublic
        guard explicit || CachedResponse.heuristicStatuses.contains(head.status.code) else { return nil }
        // A response with no freshness, no validator and no stale window could only ever be
        // loaded again: it is not kept.
        let received = head.headerFields
        guard control.maxAge != nil || received[.expires] != nil || received[.eTag] != nil || received[.lastModified] != nil
            || control.staleIfError != nil || control.staleWhileRevalidate != nil
        else { return nil }
        var fields = head.headerFields
        for name in CachedResponse.unstored(in: head.headerFields) { fields[name] = nil }
        var stored = head
        stored.headerFields = fields
        var vary: [String: String] = [:]
        for name in CachedResponse.varyNames(head) { vary[name] = CachedResponse.value(of: name, in: reply.request.headers) }
        return CachedResponse(key: key, head: stored, body: data ?? Data(), varyValues: vary, requestTime: requestTime, responseTime: responseTime)
    }

    /// After an unsafe request that succeeded, the stored responses it may have changed go: its
    /// target's, and its `Location`'s and `Content-Location`'s on the same origin (§4.4).
    private func invalidate(_ cache: HTTPCache, after reply: Reply, key: String) {
        guard (200..<400).contains(reply.head.status.code) else { return }
        cache.remove(key)
        guard let base = URL(string: key) else { return }
        for name in [HTTPField.Name.location, .contentLocation] {
            guard let value = reply.head.headerFields[name], let target = URL(string: value, relativeTo: base)?.absoluteURL,
                target.scheme == base.scheme, target.host == base.host, target.port == base.port
            else { continue }
            cache.remove(target.absoluteString)
        }
    }

    /// The methods that change nothing, so invalidate nothing (RFC 9110 §9.2.1).
    private static let safeMethods: Set<HTTPRequest.Method> = [.get, .head, .options, .trace]

    /// The target as sent, without parsing it into a URL: the key of its stored responses.
    private static func key(of request: RawRequest) -> String {
        request.cacheKey
    }

    /// Whether the caller made the request conditional itself: then the cache stays out of it.
    private static func isConditional(_ headers: HTTPFields) -> Bool {
        headers[.ifNoneMatch] != nil || headers[.ifModifiedSince] != nil || headers[.ifMatch] != nil || headers[.ifUnmodifiedSince] != nil
            || headers[.range] != nil
    }
}
