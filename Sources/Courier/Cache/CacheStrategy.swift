import CourierWire
import Foundation
import HTTPTypes

/// The cache's RFC 9111 decisions, made apart from the stage that acts on them
/// (`Pipeline/CacheStage.swift`): each takes what is stored, what the request asks and the time, and
/// returns what to do, deciding nothing by sending or storing.
enum CacheStrategy {
    /// What to do with a `GET` the cache may answer, before anything is sent.
    enum Lookup {
        /// Answer with `stored`, `age` seconds old, without sending.
        case answer(CachedResponse, age: TimeInterval, outcome: CacheOutcome)
        /// Answer with `stored`, stale but within its `stale-while-revalidate` window, and
        /// revalidate it off the caller's path.
        case answerWhileRevalidating(CachedResponse, age: TimeInterval)
        /// Send the request: with `stored`'s validators when there is one to revalidate.
        case send(revalidating: CachedResponse?)
        /// `only-if-cached` with nothing stored: the cache answers `504` itself (RFC 9111 §5.2.1.7).
        case unavailable
    }

    /// Whether the cache takes part in `request` at all: a `GET` whose response is read whole,
    /// not made conditional or partial by the caller.
    static func applies(to request: RawRequest, streams: Bool) -> Bool {
        let headers = request.headers
        let conditional = headers[.ifNoneMatch] != nil || headers[.ifModifiedSince] != nil || headers[.ifMatch] != nil
            || headers[.ifUnmodifiedSince] != nil || headers[.range] != nil
        return request.method == .get && !streams && !conditional
    }

    /// What to do with a request that asked `asked` under `policy`, `stored` being what the cache
    /// holds for it, at `now` (RFC 9111 §4, and RFC 5861's stale windows).
    static func lookup(stored: CachedResponse?, asked: CacheControl, policy: CachePolicy, now: Date, heuristicCap: Duration) -> Lookup {
        guard let stored else { return policy == .onlyIfCached ? .unavailable : .send(revalidating: nil) }
        let age = stored.age(at: now)
        let control = stored.control
        let lifetime = stored.freshnessLifetime(cap: heuristicCap)
        switch policy {
        case .returnCacheElseLoad, .onlyIfCached:
            return .answer(stored, age: age, outcome: age < lifetime ? .hit(age: .seconds(age)) : .stale(age: .seconds(age)))
        case .useProtocol, .reload:
            // (`.reload` never has a stored response: it reads nothing.)
            break
        }
        guard !asked.noCache, !control.noCache else { return .send(revalidating: stored) }
        if isFresh(age: age, lifetime: lifetime, asked: asked) {
            return .answer(stored, age: age, outcome: .hit(age: .seconds(age)))
        }
        let staleness = age - lifetime
        guard !control.mustRevalidate, staleness > 0 else { return .send(revalidating: stored) }
        let allowed = switch asked.maxStale {
        case .any: true
        case .seconds(let bound): staleness <= TimeInterval(bound)
        case nil: false
        }
        if allowed { return .answer(stored, age: age, outcome: .stale(age: .seconds(age))) }
        if let window = control.staleWhileRevalidate, staleness <= TimeInterval(window) {
            return .answerWhileRevalidating(stored, age: age)
        }
        return .send(revalidating: stored)
    }

    /// `stored`'s age, when its `stale-if-error` covers its staleness at `now` and nothing
    /// forbids serving it after a failure (RFC 5861 §4).
    static func staleIfError(_ stored: CachedResponse?, now: Date, heuristicCap: Duration) -> TimeInterval? {
        guard let stored, let window = stored.control.staleIfError, !stored.control.mustRevalidate else { return nil }
        let age = stored.age(at: now)
        guard age - stored.freshnessLifetime(cap: heuristicCap) <= TimeInterval(window) else { return nil }
        return age
    }

    /// The entry to store for `reply` under `key`, when RFC 9111 §3 allows storing it.
    static func storable(_ reply: Reply, key: String, asked: CacheControl, requestTime: Date, responseTime: Date) -> CachedResponse? {
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

    /// The keys whose stored responses an unsafe request to `key` that was answered `head` may
    /// have changed: none unless it succeeded; then its target's, and its `Location`'s and
    /// `Content-Location`'s on the same origin (§4.4). A safe method changes nothing (RFC 9110
    /// §9.2.1).
    static func invalidated(by method: HTTPRequest.Method, answered head: ResponseHead, key: String) -> [String] {
        guard !safeMethods.contains(method), (200..<400).contains(head.status.code) else { return [] }
        var keys = [key]
        guard let base = URL(string: key) else { return keys }
        for name in [HTTPField.Name.location, .contentLocation] {
            guard let value = head.headerFields[name], let target = URL(string: value, relativeTo: base)?.absoluteURL,
                target.scheme == base.scheme, target.host == base.host, target.port == base.port
            else { continue }
            keys.append(target.absoluteString)
        }
        return keys
    }

    /// Whether a stored response `age` seconds old, fresh for `lifetime`, satisfies the request's
    /// own bounds (`max-age`, `min-fresh`).
    private static func isFresh(age: TimeInterval, lifetime: TimeInterval, asked: CacheControl) -> Bool {
        guard age < lifetime else { return false }
        if let maxAge = asked.maxAge, age > TimeInterval(maxAge) { return false }
        if let minFresh = asked.minFresh, lifetime - age < TimeInterval(minFresh) { return false }
        return true
    }

    /// The methods that change nothing, so invalidate nothing.
    private static let safeMethods: Set<HTTPRequest.Method> = [.get, .head, .options, .trace]
}
