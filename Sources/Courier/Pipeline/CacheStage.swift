import CourierWire
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
        return try await throughCache(call, cache)
    }

    /// The cache stage of a provider with `cache`: acts on what ``CacheStrategy`` decides.
    private nonisolated(nonsending) func throughCache(_ call: Call, _ cache: HTTPCache) async throws(CourierError) -> (Reply, RetryRecord) {
        let request = call.request
        guard CacheStrategy.applies(to: request, streams: call.streams) else {
            let result = try await attempts(call)
            for key in CacheStrategy.invalidated(by: request.method, answered: result.0.head, key: request.cacheKey) { cache.remove(key) }
            return result
        }
        let key = request.cacheKey
        let asked = CacheControl(request.headers)
        let policy = asked.onlyIfCached ? .onlyIfCached : call.cachePolicy
        let stored = policy == .reload ? nil : cache.lookup(key, request.headers)
        switch CacheStrategy.lookup(stored: stored, asked: asked, policy: policy, now: cache.now(), heuristicCap: cache.heuristicCap) {
        case .answer(let stored, let age, let outcome):
            return await answeredLocally(Self.answer(stored, request, age: age, outcome: outcome))
        case .answerWhileRevalidating(let stored, let age):
            // One revalidation at a time: a request while it runs gets the stale response too.
            if cache.beginRevalidating(key) { revalidateInBackground(call, stored, asked: asked, cache) }
            return await answeredLocally(Self.answer(stored, request, age: age, outcome: .stale(age: .seconds(age))))
        case .unavailable:
            let head = HTTPResponse(status: .gatewayTimeout, headerFields: [.contentLength: "0"])
            var reply = Reply(head: head, body: .whole(nil), request: request)
            reply.cache = .unavailable
            return (reply, RetryRecord())
        case .send(let revalidating):
            return try await load(call, key: key, asked: asked, revalidating: revalidating, cache)
        }
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
            if let entry = CacheStrategy.storable(reply, key: redirected, asked: asked, requestTime: requestTime, responseTime: responseTime) {
                cache.store(entry)
            }
        } else if let entry = CacheStrategy.storable(reply, key: key, asked: asked, requestTime: requestTime, responseTime: responseTime) {
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

    /// `stored`, stale, when ``CacheStrategy/staleIfError(_:now:heuristicCap:)`` allows it.
    private func staleIfError(_ stored: CachedResponse?, _ cache: HTTPCache, _ request: RawRequest) -> Reply? {
        guard let stored, let age = CacheStrategy.staleIfError(stored, now: cache.now(), heuristicCap: cache.heuristicCap) else { return nil }
        return Self.answer(stored, request, age: age, outcome: .stale(age: .seconds(age)))
    }

    private static func answer(_ stored: CachedResponse, _ request: RawRequest, age: TimeInterval, outcome: CacheOutcome) -> Reply {
        var reply = Reply(head: stored.returned(age: age), body: .whole(stored.body), request: request)
        reply.cache = outcome
        return reply
    }
}
