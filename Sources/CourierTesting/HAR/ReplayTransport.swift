import Courier
public import Foundation
public import HTTPTypes
public import OpenAPIRuntime

/// A transport for tests that answers from an HTTP Archive (HAR 1.2) — one recorded by a browser's
/// developer tools, a proxy such as mitmproxy, or any other tool that writes the format — without
/// a network.
///
/// A request is answered by the first unused entry with its method, path and query (the query's
/// order aside), and, with `matchingBodies`, its body; repeated identical requests take their
/// entries in the order recorded. A request no entry answers fails with
/// `CourierError.Kind.unmocked`, naming the closest entry and what differs from it.
///
/// ```swift
/// let replay = try ReplayTransport(archive: Bundle.module.url(forResource: "books", withExtension: "har")!)
/// let provider = Provider(baseURL: "https://api.example.com", transport: replay)
/// let books = try await provider.send(Request(.get, "/books", receiving: .json([Book].self)))
/// #expect(replay.unusedEntries.isEmpty)
/// ```
public final class ReplayTransport: ClientTransport {
    private let entries: [HTTPArchive.Entry]
    /// What each entry is matched on, worked out once.
    private let keys: [Key]
    private let matchingBodies: Bool
    private let used = Locked<Set<Int>>([])

    /// A transport answering from the archive at `url`; `matchingBodies` also compares request
    /// bodies. An archive that cannot be read is an `HTTPArchiveError` naming the file.
    public convenience init(archive url: URL, matchingBodies: Bool = false) throws {
        self.init(try HTTPArchive(contentsOf: url), matchingBodies: matchingBodies)
    }

    init(_ archive: HTTPArchive, matchingBodies: Bool) {
        self.entries = archive.log.entries
        self.keys = entries.map { Key($0, bodies: matchingBodies) }
        self.matchingBodies = matchingBodies
    }

    /// The entries no request has used yet, as `METHOD URL`, in the order recorded: a test that
    /// expects every recorded exchange to happen checks that this is empty.
    public var unusedEntries: [String] {
        let used = used.withLock { $0 }
        return entries.indices.filter { !used.contains($0) }.map { "\(entries[$0].request.method) \(entries[$0].request.url)" }
    }

    /// Answers `request` from the first unused entry that matches it.
    public func send(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String) async throws -> (HTTPResponse, HTTPBody?) {
        // The body is read only when it is matched on.
        var sent: Data?
        if matchingBodies { sent = if let body { try await Data(collecting: body, upTo: .max) } else { Data() } }
        let wanted = Key(method: request.method.rawValue, target: request.path ?? "/", body: sent)
        let found: Int? = used.withLock { used in
            guard let index = keys.indices.first(where: { !used.contains($0) && keys[$0] == wanted }) else { return nil }
            used.insert(index)
            return index
        }
        guard let found else {
            throw CourierError.unmocked(operationID, detail: missReport(for: wanted))
        }
        return try answer(entries[found], operationID: operationID)
    }

    private func answer(_ entry: HTTPArchive.Entry, operationID: String) throws -> (HTTPResponse, HTTPBody?) {
        guard let bytes = entry.response.content.bytes else {
            throw CourierError.unmocked(operationID, detail: "the recorded body of \(entry.request.method) \(entry.request.url) is not valid base64")
        }
        var fields = HTTPFields()
        for pair in entry.response.headers {
            guard let name = HTTPField.Name(pair.name) else { continue }
            // An archive keeps the body as received after decoding: its framing and coding no
            // longer describe it.
            if [.contentLength, .contentEncoding, .transferEncoding].contains(name) { continue }
            fields.append(HTTPField(name: name, value: pair.value))
        }
        fields[.contentLength] = String(bytes.count)
        let head = HTTPResponse(status: .init(code: entry.response.status), headerFields: fields)
        return (head, HTTPBody(bytes))
    }

    /// What the closest entry is and how the request differs from it.
    private func missReport(for wanted: Key) -> String {
        let described = "no entry of the archive does"
        guard !entries.isEmpty else { return "the archive has no entries" }
        let closest = keys.indices.max { keys[$0].likeness(to: wanted) < keys[$1].likeness(to: wanted) } ?? 0
        let key = keys[closest]
        var differences: [String] = []
        if key.method != wanted.method { differences.append("method \(key.method)") }
        if key.path != wanted.path { differences.append("path \(key.path)") }
        if key.query != wanted.query { differences.append("query \(key.queryText)") }
        if key.body != wanted.body { differences.append("body") }
        let exhausted = differences.isEmpty ? "; every entry like it has been used" : ", which differs in \(differences.joined(separator: ", "))"
        return described + "; the closest is \(entries[closest].request.method) \(entries[closest].request.url)" + exhausted
    }

    /// What a request is matched on.
    struct Key: Equatable {
        let method: String
        let path: String
        /// The query's items, sorted: their order does not matter.
        let query: [String]
        let body: Data?

        init(method: String, target: String, body: Data?) {
            self.method = method.uppercased()
            let parts = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
            let path = parts.first.map(String.init) ?? "/"
            self.path = path.isEmpty ? "/" : path
            self.query = parts.count > 1 ? parts[1].split(separator: "&").map(String.init).sorted() : []
            self.body = body
        }

        init(_ entry: HTTPArchive.Entry, bodies: Bool) {
            let url = URLComponents(string: entry.request.url)
            let target = (url?.percentEncodedPath ?? entry.request.url) + (url?.percentEncodedQuery.map { "?" + $0 } ?? "")
            self.init(method: entry.request.method, target: target, body: bodies ? Data((entry.request.postData?.text ?? "").utf8) : nil)
        }

        var queryText: String { query.isEmpty ? "(none)" : "?" + query.joined(separator: "&") }

        /// How much of `other` this key shares, for naming the closest entry.
        func likeness(to other: Key) -> Int {
            (path == other.path ? 4 : 0) + (method == other.method ? 2 : 0) + (query == other.query ? 1 : 0)
        }
    }
}
