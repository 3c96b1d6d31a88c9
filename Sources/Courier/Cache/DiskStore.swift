import Foundation
import HTTPTypes

/// The files of an ``HTTPCache`` kept on disk: one per stored response, bounded in bytes, the
/// least recently used removed first.
///
/// A file is named by hashes of its key and its `Vary` values — hexadecimal digits only — so no
/// key, whatever its text, names a file outside the folder. It is written whole under a temporary
/// name and renamed into place, so a reader sees the old file or the new one, never part of
/// either; a temporary file left by a crash is removed when the folder is next opened. Each file
/// holds its key, its body's length and a checksum of the rest: a file for another key is not
/// used, and one whose body is not that long or whose bytes do not match (cut short, grown, or
/// zeroed by a crash before the system wrote it out) is removed, never served. The folder is
/// its owner's alone (mode 700, files 600). One cache at a time uses a folder: a second one on
/// the same folder would not see what the first removes.
final class DiskStore: Sendable {
    let directory: URL
    let byteLimit: Int
    private let state: Locked<State>

    private struct State {
        /// The stored files by their key's hash, then their `Vary` values' hash: size and last use.
        var files: [String: [String: (bytes: Int, lastUse: UInt64)]] = [:]
        var bytes = 0
        var uses: UInt64 = 0
    }

    /// The store in `directory`, made when missing; the files already there are taken in, the
    /// oldest first to go, and temporary files left by an interrupted write are removed.
    init(directory: URL, byteLimit: Int) throws {
        self.directory = directory.standardizedFileURL
        self.byteLimit = max(0, byteLimit)
        let manager = FileManager.default
        // Only its owner may read it: the files hold URLs and responses, some to credentials.
        try manager.createDirectory(at: self.directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        // Writable, or say so now rather than drop every response later.
        let probe = self.directory.appendingPathComponent(Self.temporaryPrefix + UUID().uuidString)
        try Data().write(to: probe)
        try? manager.removeItem(at: probe)

        var found: [(name: String, bytes: Int, modified: Date)] = []
        for name in try manager.contentsOfDirectory(atPath: self.directory.path) {
            let url = self.directory.appendingPathComponent(name)
            if name.hasPrefix(Self.temporaryPrefix) {
                // Left by a write that never finished; a recent one may be another cache's on
                // this folder, still being written.
                let modified = (try? manager.attributesOfItem(atPath: url.path))?[.modificationDate] as? Date ?? .distantPast
                if modified.timeIntervalSinceNow < -60 { try? manager.removeItem(at: url) }
                continue
            }
            guard Self.split(name) != nil, let attributes = try? manager.attributesOfItem(atPath: url.path) else { continue }
            let bytes = (attributes[.size] as? NSNumber)?.intValue ?? 0
            found.append((name, bytes, attributes[.modificationDate] as? Date ?? .distantPast))
        }
        var state = State()
        for file in found.sorted(by: { $0.modified < $1.modified }) {
            guard let (keyHash, varyHash) = Self.split(file.name) else { continue }
            state.uses += 1
            state.files[keyHash, default: [:]][varyHash] = (file.bytes, state.uses)
            state.bytes += file.bytes
        }
        self.state = Locked(state)
        trim()
    }

    /// The stored responses for `key` that read back whole.
    func load(_ key: String) -> [CachedResponse] {
        let keyHash = Self.hash(key)
        touch(key)
        let names = state.withLock { state in
            (state.files[keyHash] ?? [:]).map { (name: "\(keyHash)-\($0.key)", bytes: $0.value.bytes) }
        }
        return names.compactMap { name, bytes in
            let url = directory.appendingPathComponent(name + Self.suffix)
            // Only a regular file (not a link, nor a device) no larger than any this store
            // writes is read.
            guard bytes <= byteLimit / 4, let attributes = try? FileManager.default.attributesOfItem(atPath: url.path),
                attributes[.type] as? FileAttributeType == .typeRegular,
                ((attributes[.size] as? NSNumber)?.intValue ?? .max) <= byteLimit / 4,
                let data = try? Data(contentsOf: url), data.count <= byteLimit / 4
            else {
                discard(name)
                return nil
            }
            switch Self.decode(data) {
            case .entry(let entry) where entry.key == key:
                return entry
            case .entry:
                // Another key with the same hash: its file, not this one's.
                return nil
            case .damaged:
                discard(name)
                return nil
            }
        }
    }

    /// Marks the files of `key` as just used, for a response of theirs answered from memory.
    func touch(_ key: String) {
        let keyHash = Self.hash(key)
        state.withLock { state in
            guard let variants = state.files[keyHash] else { return }
            state.uses += 1
            for varyHash in variants.keys { state.files[keyHash]?[varyHash]?.lastUse = state.uses }
        }
    }

    /// Writes `entry` to its file, replacing the one with the same key and `Vary` values, then
    /// removes the least recently used files beyond the byte limit. A write that fails leaves the
    /// response unstored; the call it came from is not affected.
    func save(_ entry: CachedResponse) {
        let keyHash = Self.hash(entry.key)
        let varyHash = Self.hash(entry.varyValues.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "\n"))
        let data = Self.encode(entry)
        let name = "\(keyHash)-\(varyHash)"
        // Too large to keep: what was stored before under its name goes too, so it cannot answer.
        guard data.count <= byteLimit / 4 else { return discard(name) }
        let temporary = directory.appendingPathComponent(Self.temporaryPrefix + UUID().uuidString)
        guard FileManager.default.createFile(atPath: temporary.path, contents: data, attributes: [.posixPermissions: 0o600]) else {
            try? FileManager.default.removeItem(at: temporary)
            return
        }
        // Renamed and indexed under the lock, so that the index and the folder agree.
        let renamed = state.withLock { state in
            guard rename(temporary.path, directory.appendingPathComponent(name + Self.suffix).path) == 0 else { return false }
            state.bytes -= state.files[keyHash]?[varyHash]?.bytes ?? 0
            state.uses += 1
            state.files[keyHash, default: [:]][varyHash] = (data.count, state.uses)
            state.bytes += data.count
            return true
        }
        guard renamed else {
            try? FileManager.default.removeItem(at: temporary)
            return
        }
        trim()
    }

    /// Removes every stored response for `key`.
    func remove(_ key: String) {
        let keyHash = Self.hash(key)
        state.withLock { state in
            let variants = state.files.removeValue(forKey: keyHash) ?? [:]
            state.bytes -= variants.values.reduce(0) { $0 + $1.bytes }
            for varyHash in variants.keys { unlink("\(keyHash)-\(varyHash)") }
        }
    }

    /// The files stored and their bytes.
    var usage: (responses: Int, bytes: Int) {
        state.withLock { ($0.files.values.reduce(0) { $0 + $1.count }, $0.bytes) }
    }

    /// Removes the file `name` and its place in the index.
    private func discard(_ name: String) {
        guard let (keyHash, varyHash) = Self.split(name + Self.suffix) else { return }
        state.withLock { state in
            state.bytes -= state.files[keyHash]?[varyHash]?.bytes ?? 0
            state.files[keyHash]?[varyHash] = nil
            if state.files[keyHash]?.isEmpty == true { state.files[keyHash] = nil }
            unlink(name)
        }
    }

    /// Deletes the file `name`; called with the lock held, so that no save of the same name
    /// comes between the index and the folder.
    private func unlink(_ name: String) {
        try? FileManager.default.removeItem(at: directory.appendingPathComponent(name + Self.suffix))
    }

    /// Removes the least recently used files while the store is over its limit.
    private func trim() {
        state.withLock { state in
            while state.bytes > byteLimit {
                var oldest: (keyHash: String, varyHash: String, lastUse: UInt64)?
                for (keyHash, variants) in state.files {
                    for (varyHash, file) in variants where file.lastUse < (oldest?.lastUse ?? .max) {
                        oldest = (keyHash, varyHash, file.lastUse)
                    }
                }
                guard let oldest else { break }
                state.bytes -= state.files[oldest.keyHash]?[oldest.varyHash]?.bytes ?? 0
                state.files[oldest.keyHash]?[oldest.varyHash] = nil
                if state.files[oldest.keyHash]?.isEmpty == true { state.files[oldest.keyHash] = nil }
                unlink("\(oldest.keyHash)-\(oldest.varyHash)")
            }
        }
    }
}
