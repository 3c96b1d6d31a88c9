public import Foundation
import HTTPTypes

/// A private HTTP cache (RFC 9111) for a ``Provider``: responses the server allows to be reused
/// are kept in memory, or on disk as well, bounded in bytes, the least recently used evicted first.
///
/// Off unless you set one, on any transport and for every front-end:
///
/// ```swift
/// var provider = Provider(baseURL: "https://api.example.com")
/// provider.cache = HTTPCache(byteLimit: 20 << 20)
/// ```
///
/// Given a folder, the cache keeps each response in a file of its own there as well, and a cache
/// made later on the same folder — after a restart — answers from them (see
/// ``init(directory:byteLimit:heuristicCap:)``).
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
    /// The bytes kept in memory.
    let byteLimit: Int
    let heuristicCap: Duration
    /// The files on disk, when the cache was given a folder.
    let disk: DiskStore?
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
        /// Counts stores and removals: a response read from disk goes into memory only if none
        /// happened while it was read, so it cannot bring back what was replaced or removed.
        var changes: UInt64 = 0
    }

    /// A cache holding at most `byteLimit` bytes of responses (bodies and header fields); a
    /// response larger than a quarter of it is never stored. Heuristic freshness is at most
    /// `heuristicCap`.
    public convenience init(byteLimit: Int = 10 << 20, heuristicCap: Duration = .seconds(24 * 60 * 60)) {
        self.init(byteLimit: byteLimit, heuristicCap: heuristicCap, now: { Date() })
    }

    /// A cache that keeps each response in a file of its own in `directory` (made if missing),
    /// at most `byteLimit` bytes of them, and the most recently used of them in memory as well
    /// (at most 10 MiB). A cache made on the same folder later, in this process or after a
    /// restart, answers from the files already there.
    ///
    /// ```swift
    /// let folder = FileManager.default.urls(for: .cachesDirectory, in: .userDomainMask)[0]
    /// provider.cache = try HTTPCache(directory: folder.appendingPathComponent("api"))
    /// ```
    ///
    /// Each file is written whole under another name and then renamed, so a crash mid-write
    /// leaves no partial response; a file whose body is not the length it was written with is
    /// removed, never served. Files are named by hashes, so no request names a file outside the
    /// folder. Throws the file system's error, naming the folder, when it cannot be made or
    /// written to.
    public convenience init(directory: URL, byteLimit: Int = 50 << 20, heuristicCap: Duration = .seconds(24 * 60 * 60)) throws {
        try self.init(directory: directory, byteLimit: byteLimit, heuristicCap: heuristicCap, now: { Date() })
    }

    /// A cache on disk keeping at most `memoryLimit` bytes in memory (10 MiB unless a test says).
    init(directory: URL, byteLimit: Int, memoryLimit: Int = 10 << 20, heuristicCap: Duration, now: @escaping @Sendable () -> Date) throws {
        self.disk = try DiskStore(directory: directory, byteLimit: byteLimit)
        self.byteLimit = min(max(0, byteLimit), memoryLimit)
        self.heuristicCap = heuristicCap
        self.now = now
    }

    init(byteLimit: Int, heuristicCap: Duration, now: @escaping @Sendable () -> Date) {
        self.byteLimit = max(0, byteLimit)
        self.heuristicCap = heuristicCap
        self.now = now
        self.disk = nil
    }

    /// The stored response for `key` whose `Vary` fields match `headers`: from memory, else from
    /// its file (and then kept in memory too).
    func lookup(_ key: String, _ headers: HTTPFields) -> CachedResponse? {
        let (inMemory, changes) = state.withLock { state -> (CachedResponse?, UInt64) in
            guard let found = state.entries[key]?.first(where: { $0.matches(headers) }) else { return (nil, state.changes) }
            state.uses += 1
            state.lastUse[key] = state.uses
            return (found, state.changes)
        }
        if let inMemory {
            disk?.touch(key)
            return inMemory
        }
        guard let found = disk?.load(key).first(where: { $0.matches(headers) }) else { return nil }
        keep(found, unlessChangedSince: changes)
        return found
    }

    /// Keeps `entry` in memory and on disk, replacing the stored response with the same `Vary`
    /// values, and evicts the least recently used responses beyond the byte limits.
    func store(_ entry: CachedResponse) {
        disk?.save(entry)
        keep(entry, unlessChangedSince: nil)
    }

    /// Keeps `entry` in memory, replacing the one with its `Vary` values. For a response read
    /// from disk (`changes` given), only when nothing was stored or removed since the read began.
    private func keep(_ entry: CachedResponse, unlessChangedSince changes: UInt64?) {
        guard entry.size <= byteLimit / 4 else {
            if changes == nil { forget(entry.key) }
            return
        }
        state.withLock { state in
            if let changes {
                guard changes == state.changes else { return }
            } else {
                state.changes += 1
            }
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

    /// Removes every stored response for `key`, in memory and on disk.
    func remove(_ key: String) {
        // The files first: a lookup that read one before this began finds the count changed.
        disk?.remove(key)
        forget(key)
    }

    private func forget(_ key: String) {
        state.withLock { state in
            state.changes += 1
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
