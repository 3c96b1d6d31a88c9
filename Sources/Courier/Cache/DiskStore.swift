import Foundation
import HTTPTypes

/// The files of an ``HTTPCache`` kept on disk: one per stored response, bounded in bytes, the
/// least recently used removed first.
///
/// A file is named by hashes of its key and its `Vary` values — hexadecimal digits only — so no
/// key, whatever its text, names a file outside the folder. It is written whole under a temporary
/// name and renamed into place, so a reader sees the old file or the new one, never part of
/// either; a temporary file left by a crash is removed when the folder is next opened. Each file holds
/// its key and its body's length: a file for another key is not used, and one whose body is not
/// exactly that long (cut short, or grown) is removed, never served.
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
        try manager.createDirectory(at: self.directory, withIntermediateDirectories: true)
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
            // A file larger than any this store writes is not read.
            guard bytes <= byteLimit / 4, let data = try? Data(contentsOf: url), data.count <= byteLimit / 4 else {
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
        do {
            try data.write(to: temporary)
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            return
        }
        guard rename(temporary.path, directory.appendingPathComponent(name + Self.suffix).path) == 0 else {
            try? FileManager.default.removeItem(at: temporary)
            return
        }
        state.withLock { state in
            state.bytes -= state.files[keyHash]?[varyHash]?.bytes ?? 0
            state.uses += 1
            state.files[keyHash, default: [:]][varyHash] = (data.count, state.uses)
            state.bytes += data.count
        }
        trim()
    }

    /// Removes every stored response for `key`.
    func remove(_ key: String) {
        let keyHash = Self.hash(key)
        let names = state.withLock { state -> [String] in
            let variants = state.files.removeValue(forKey: keyHash) ?? [:]
            state.bytes -= variants.values.reduce(0) { $0 + $1.bytes }
            return variants.keys.map { "\(keyHash)-\($0)" }
        }
        for name in names { try? FileManager.default.removeItem(at: directory.appendingPathComponent(name + Self.suffix)) }
    }

    /// The files stored and their bytes.
    var usage: (responses: Int, bytes: Int) {
        state.withLock { ($0.files.values.reduce(0) { $0 + $1.count }, $0.bytes) }
    }

    /// Removes the file `name` and its place in the index.
    private func discard(_ name: String) {
        try? FileManager.default.removeItem(at: directory.appendingPathComponent(name + Self.suffix))
        guard let (keyHash, varyHash) = Self.split(name + Self.suffix) else { return }
        state.withLock { state in
            state.bytes -= state.files[keyHash]?[varyHash]?.bytes ?? 0
            state.files[keyHash]?[varyHash] = nil
            if state.files[keyHash]?.isEmpty == true { state.files[keyHash] = nil }
        }
    }

    /// Removes the least recently used files while the store is over its limit.
    private func trim() {
        let evicted = state.withLock { state -> [String] in
            var evicted: [String] = []
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
                evicted.append("\(oldest.keyHash)-\(oldest.varyHash)")
            }
            return evicted
        }
        for name in evicted { try? FileManager.default.removeItem(at: directory.appendingPathComponent(name + Self.suffix)) }
    }
}

// MARK: - Names and the file format

extension DiskStore {
    static let suffix = ".response"
    static let temporaryPrefix = ".writing-"
    private static let magic = Array("courier-cache 1\n".utf8)

    /// FNV-1a, 64 bits, as 16 hexadecimal digits: a file name no text can steer.
    static func hash(_ text: String) -> String {
        var value: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            value ^= UInt64(byte)
            value = value &* 0x0000_0100_0000_01b3
        }
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// The two hashes of a stored file's name, when it is one.
    static func split(_ fileName: String) -> (String, String)? {
        guard fileName.hasSuffix(suffix) else { return nil }
        let parts = fileName.dropLast(suffix.count).split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ $0.count == 16 && $0.allSatisfy(\.isHexDigit) }) else { return nil }
        return (String(parts[0]), String(parts[1]))
    }

    /// What a file holds besides the body.
    private struct Header: Codable {
        var key: String
        var status: Int
        var reason: String
        var fields: [[String]]
        var vary: [String: String]
        var requestTime: Double
        var responseTime: Double
        var bodyLength: Int
    }

    private enum Decoded {
        case entry(CachedResponse)
        case damaged
    }

    /// `courier-cache 1`, the header's length in bytes, the header as JSON, then the body.
    static func encode(_ entry: CachedResponse) -> Data {
        let header = Header(
            key: entry.key,
            status: entry.head.status.code,
            reason: entry.head.status.reasonPhrase,
            fields: entry.head.headerFields.map { [$0.name.rawName, $0.value] },
            vary: entry.varyValues,
            requestTime: entry.requestTime.timeIntervalSince1970,
            responseTime: entry.responseTime.timeIntervalSince1970,
            bodyLength: entry.body.count
        )
        // Every member of `Header` has a JSON form: encoding it cannot fail.
        let json = (try? JSONEncoder().encode(header)) ?? Data()
        var data = Data(magic)
        data.append(contentsOf: Array("\(json.count)\n".utf8))
        data.append(json)
        data.append(entry.body)
        return data
    }

    private static func decode(_ data: Data) -> Decoded {
        let bytes = [UInt8](data)
        guard bytes.starts(with: magic), let newline = bytes[magic.count...].firstIndex(of: 10),
            let length = Int(String(decoding: bytes[magic.count..<newline], as: UTF8.self)), length > 0,
            length <= bytes.count - newline - 1,
            let header = try? JSONDecoder().decode(Header.self, from: Data(bytes[(newline + 1)..<(newline + 1 + length)])),
            (100...999).contains(header.status)
        else { return .damaged }
        let bodyStart = newline + 1 + length
        // A body of any other length than the one written is not the one written.
        guard bytes.count - bodyStart == header.bodyLength else { return .damaged }
        var fields = HTTPFields()
        for pair in header.fields {
            guard pair.count == 2, let name = HTTPField.Name(pair[0]) else { return .damaged }
            fields.append(HTTPField(name: name, value: pair[1]))
        }
        let head = HTTPResponse(status: .init(code: header.status, reasonPhrase: header.reason), headerFields: fields)
        return .entry(
            CachedResponse(
                key: header.key,
                head: head,
                body: Data(bytes[bodyStart...]),
                varyValues: header.vary,
                requestTime: Date(timeIntervalSince1970: header.requestTime),
                responseTime: Date(timeIntervalSince1970: header.responseTime)
            )
        )
    }
}
