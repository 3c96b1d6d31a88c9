import Courier
import Foundation

/// The entries of one archive file, shared by an ``ArchiveTransport`` and the bounded copies a
/// provider makes of it: which have been used, which are being recorded, and the file, rewritten
/// whole and atomically as each recorded exchange ends, so that the file on disk is always the
/// last complete archive.
final class ArchiveStore: Sendable {
    let file: URL
    let matchingBodies: Bool
    let redaction: Redaction
    private let state: Locked<State>

    struct State {
        /// In the order the exchanges started; `nil` while one is being recorded.
        var entries: [HTTPArchive.Entry?]
        /// What each entry is matched on.
        var keys: [ArchiveKey?]
        /// The entries that answered a request or were recorded by this run.
        var used: Set<Int> = []
    }

    /// The store of `file`, starting with `entries`.
    init(file: URL, entries: [HTTPArchive.Entry], matchingBodies: Bool, redaction: Redaction) {
        self.file = file
        self.matchingBodies = matchingBodies
        self.redaction = redaction
        let keys = entries.map { ArchiveKey($0, bodies: matchingBodies, redaction: redaction) }
        state = Locked(State(entries: entries, keys: keys))
    }

    /// Takes the first unused entry that matches `key`; `nil` when none does.
    func take(_ key: ArchiveKey) -> HTTPArchive.Entry? {
        state.withLock { state in
            guard let index = state.keys.indices.first(where: { !state.used.contains($0) && state.keys[$0] == key }) else { return nil }
            state.used.insert(index)
            return state.entries[index]
        }
    }

    /// Why no entry matches `key`: the closest entry and what differs from it.
    func miss(_ key: ArchiveKey) -> String {
        state.withLock { state in
            let recorded = state.keys.indices.compactMap { index in
                state.keys[index].flatMap { found in state.entries[index].map { (found, $0) } }
            }
            guard let (found, entry) = recorded.max(by: { $0.0.likeness(to: key) < $1.0.likeness(to: key) }) else {
                return "no entry of the archive does; the archive has no entries"
            }
            return "no entry of the archive does; " + found.difference(from: key, entry: entry)
        }
    }

    /// The entries no request has used, as `METHOD URL`, in the order recorded.
    var unused: [String] {
        state.withLock { state in
            state.entries.indices.compactMap { index in
                guard !state.used.contains(index), let entry = state.entries[index] else { return nil }
                return "\(entry.request.method) \(entry.request.url)"
            }
        }
    }

    /// A place for an exchange that starts now, after every entry started before it.
    func reserve() -> Int {
        state.withLock { state in
            state.entries.append(nil)
            state.keys.append(nil)
            state.used.insert(state.entries.count - 1)
            return state.entries.count - 1
        }
    }

    /// Gives up the place of an exchange that got no response.
    func abandon(_ slot: Int) {
        state.withLock { state in
            // Left empty rather than removed: the places after it stay where they are.
            state.entries[slot] = nil
        }
    }

    /// Stores the recorded `entry` in its place and writes the archive.
    func complete(_ slot: Int, with entry: HTTPArchive.Entry) throws(HTTPArchiveError) {
        let failure: HTTPArchiveError? = state.withLock { state in
            state.entries[slot] = entry
            state.keys[slot] = ArchiveKey(entry, bodies: matchingBodies, redaction: redaction)
            // Under the lock, so that a later state is never overwritten by an earlier one.
            let archive = HTTPArchive(entries: state.entries.compactMap { $0 })
            do {
                try archive.encoded().write(to: file, options: .atomic)
                return nil
            } catch {
                return HTTPArchiveError(file: file, "cannot be written: \(error.localizedDescription)")
            }
        }
        if let failure { throw failure }
    }
}
