import Foundation
public import HTTPTypes

/// A private HTTP cache (RFC 9111) for a ``Provider``: responses the server allows to be reused
/// are kept in memory, bounded in bytes, the least recently used evicted first.
///
/// Off unless you set one, on any transport and for every front-end:
///
/// ```swift
/// var provider = Provider(baseURL: "https://api.example.com")
/// provider.cache = HTTPCache(byteLimit: 20 << 20)
/// ```
///
/// What it follows: freshness from `Cache-Control: max-age`, `Expires` with `Date`, and `Age`;
/// heuristic freshness (a tenth of the time since `Last-Modified`, capped) only for the statuses
/// RFC 9111 §4.2.2 allows; revalidation with `If-None-Match` and `If-Modified-Since`, a `304`
/// updating the stored header fields; `Vary`; `no-store`, `no-cache`, `must-revalidate` and
/// `public` on responses; `max-age`, `max-stale`, `min-fresh`, `no-cache`, `no-store` and
/// `only-if-cached` on requests; `stale-while-revalidate` (the stale response returned while one
/// revalidation runs in the background) and `stale-if-error` (a stale response instead of a
/// `5xx` or a failed exchange). An unsafe request that succeeds removes its target and its
/// `Location` and `Content-Location` from the cache. A response to a request with
/// `Authorization` is kept only when `public` or `must-revalidate` allow it (§3.5).
///
/// Only `GET` requests whose responses are read whole are answered from the cache; a streamed
/// response passes through. ``Response/cache`` tells where each response came from.
public final class HTTPCache: Sendable {
    let byteLimit: Int
    let heuristicCap: Duration
    /// The wall clock the cache reads ages on; a test may give its own.
    let now: @Sendable () -> Date
    private let state = Locked(State())

    private struct State {
        var entries: [String: [CachedResponse]] = [:]
        var bytes = 0
        /// When each key was last used, for the least recently used to go first.
        var lastUse: [String: UInt64] = [:]
        var uses: UInt64 = 0
        /// The keys whose background revalidation is running.
        var revalidating: Set<String> = []
    }

    /// A cache holding at most `byteLimit` bytes of responses (bodies and header fields); a
    /// response larger than a quarter of it is never stored. Heuristic freshness is at most
    /// `heuristicCap`.
    public convenience init(byteLimit: Int = 10 << 20, heuristicCap: Duration = .seconds(24 * 60 * 60)) {
        self.init(byteLimit: byteLimit, heuristicCap: heuristicCap, now: { Date() })
    }

    init(byteLimit: Int, heuristicCap: Duration, now: @escaping @Sendable () -> Date) {
        self.byteLimit = max(0, byteLimit)
        self.heuristicCap = heuristicCap
        self.now = now
    }

    /// The stored response for `key` whose `Vary` fields match `headers`.
    func lookup(_ key: String, _ headers: HTTPFields) -> CachedResponse? {
        state.withLock { state in
            guard let found = state.entries[key]?.first(where: { $0.matches(headers) }) else { return nil }
            state.uses += 1
            state.lastUse[key] = state.uses
            return found
        }
    }

    /// Keeps `entry`, replacing the stored response with the same `Vary` values, and evicts the
    /// least recently used responses beyond the byte limit.
    func store(_ entry: CachedResponse) {
        guard entry.size <= byteLimit / 4 else { return remove(entry.key) }
        state.withLock { state in
            var variants = state.entries[entry.key] ?? []
            if let index = variants.firstIndex(where: { $0.varyValues == entry.varyValues }) {
                state.bytes -= variants[index].size
                variants[index] = entry
            } else {
                variants.append(entry)
            }
            state.bytes += entry.size
            state.entries[entry.key] = variants
            state.uses += 1
            state.lastUse[entry.key] = state.uses
            while state.bytes > byteLimit, let oldest = state.lastUse.min(by: { $0.value < $1.value })?.key {
                state.bytes -= state.entries[oldest]?.reduce(0) { $0 + $1.size } ?? 0
                state.entries[oldest] = nil
                state.lastUse[oldest] = nil
            }
        }
    }

    /// Removes every stored response for `key`.
    func remove(_ key: String) {
        state.withLock { state in
            state.bytes -= state.entries[key]?.reduce(0) { $0 + $1.size } ?? 0
            state.entries[key] = nil
            state.lastUse[key] = nil
        }
    }

    /// Whether a background revalidation of `key` may start: one at a time per key.
    func beginRevalidating(_ key: String) -> Bool {
        state.withLock { $0.revalidating.insert(key).inserted }
    }

    func endRevalidating(_ key: String) {
        _ = state.withLock { $0.revalidating.remove(key) }
    }

    /// How many responses are stored, and their bytes.
    var usage: (responses: Int, bytes: Int) {
        state.withLock { ($0.entries.values.reduce(0) { $0 + $1.count }, $0.bytes) }
    }
}
