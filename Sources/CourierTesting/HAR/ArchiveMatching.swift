import Courier
import Foundation
import HTTPTypes

/// What a request is matched on: its method, path and query (the query's order aside), and its
/// body when bodies are matched. Query items that are recorded redacted match any value.
struct ArchiveKey: Equatable, Sendable {
    let method: String
    let path: String
    /// The query's items, sorted: their order does not matter.
    let query: [String]
    let body: Data?

    init(method: String, target: String, body: Data?, redaction: Redaction) {
        self.method = method.uppercased()
        let parts = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        let path = parts.first.map(String.init) ?? "/"
        self.path = path.isEmpty ? "/" : path
        self.query = parts.count > 1 ? redaction.query(String(parts[1])).split(separator: "&").map(String.init).sorted() : []
        self.body = body
    }

    init(_ entry: HTTPArchive.Entry, bodies: Bool, redaction: Redaction) {
        let url = URLComponents(string: entry.request.url)
        let target = (url?.percentEncodedPath ?? entry.request.url) + (url?.percentEncodedQuery.map { "?" + $0 } ?? "")
        self.init(method: entry.request.method, target: target, body: bodies ? (entry.request.postData?.bytes ?? Data()) : nil, redaction: redaction)
    }

    var queryText: String { query.isEmpty ? "(none)" : "?" + query.joined(separator: "&") }

    /// How much of `other` this key shares, for naming the closest entry.
    func likeness(to other: ArchiveKey) -> Int {
        (path == other.path ? 4 : 0) + (method == other.method ? 2 : 0) + (query == other.query ? 1 : 0)
    }

    /// What differs from `wanted` in `entry` (which this key is of), and which entry it is.
    func difference(from wanted: ArchiveKey, entry: HTTPArchive.Entry) -> String {
        var differences: [String] = []
        if method != wanted.method { differences.append("method \(method)") }
        if path != wanted.path { differences.append("path \(path)") }
        if query != wanted.query { differences.append("query \(queryText)") }
        if body != wanted.body { differences.append("body") }
        let exhausted = differences.isEmpty ? "; every entry like it has been used" : ", which differs in \(differences.joined(separator: ", "))"
        return "the closest is \(entry.request.method) \(entry.request.url)" + exhausted
    }
}

/// What an archive never holds in the clear: the headers the cURL renderer redacts
/// (`Authorization`, `Cookie`, `Proxy-Authorization` and the ones named secret), `Set-Cookie`,
/// and the query items named.
struct Redaction: Sendable {
    static let mark = "<redacted>"
    let headers: Set<HTTPField.Name>
    let queryItems: Set<String>

    init(secrets: Set<HTTPField.Name>, revealing: Set<HTTPField.Name>, queryItems: Set<String>) {
        headers = HTTPField.Name.alwaysSecret.union(secrets).union([.setCookie]).subtracting(revealing)
        self.queryItems = queryItems
    }

    /// `fields` as an archive lists them, secrets redacted.
    func pairs(_ fields: HTTPFields) -> [HTTPArchive.Pair] {
        fields.map { HTTPArchive.Pair(name: $0.name.rawName, value: headers.contains($0.name) ? Self.mark : $0.value) }
    }

    /// A percent-encoded query with the named items' values redacted.
    func query(_ query: String) -> String {
        guard !queryItems.isEmpty else { return query }
        return query.split(separator: "&", omittingEmptySubsequences: false).map { item in
            let name = item.split(separator: "=", maxSplits: 1).first.map(String.init) ?? ""
            let decoded = name.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? name
            return queryItems.contains(decoded) ? "\(name)=%3Credacted%3E" : String(item)
        }.joined(separator: "&")
    }

    /// A URL's query items, decoded, as an archive lists them, the named ones redacted.
    func queryString(_ url: URLComponents?) -> [HTTPArchive.Pair] {
        (url?.queryItems ?? []).map {
            HTTPArchive.Pair(name: $0.name, value: queryItems.contains($0.name) ? Self.mark : $0.value ?? "")
        }
    }
}
