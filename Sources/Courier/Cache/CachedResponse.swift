import Foundation
import HTTPTypes

/// One stored response: its head and body, the request field values its `Vary` names, and when
/// it was asked for and received — what its age and freshness are worked out from (RFC 9111 §4.2).
struct CachedResponse: Sendable {
    let key: String
    var head: HTTPResponse
    let body: Data
    /// The request's value of each field the response's `Vary` names, lower-cased names sorted.
    let varyValues: [String: String]
    var requestTime: Date
    var responseTime: Date

    /// The statuses a response may be stored with, and made fresh by heuristics, without explicit
    /// freshness (RFC 9110 §15.1).
    static let heuristicStatuses: Set<Int> = [200, 203, 204, 206, 300, 301, 308, 404, 405, 410, 414, 501]
    /// Header fields a cache does not store or update (RFC 9111 §3.1, §3.2).
    static let unstored: Set<HTTPField.Name> = [.connection, .transferEncoding, .proxyAuthenticate, .proxyAuthorization, .keepAlive]

    var size: Int { body.count + head.headerFields.reduce(0) { $0 + $1.name.rawName.utf8.count + $1.value.utf8.count + 4 } + key.utf8.count }
    var control: CacheControl { CacheControl(head.headerFields) }
    var hasValidators: Bool { head.headerFields[.eTag] != nil || head.headerFields[.lastModified] != nil }

    /// Whether a request with `headers` may be answered by this response: its `Vary` fields have
    /// the values stored; `Vary: *` matches nothing.
    func matches(_ headers: HTTPFields) -> Bool {
        for name in Self.varyNames(head) {
            guard name != "*" else { return false }
            if Self.value(of: name, in: headers) != varyValues[name] { return false }
        }
        return true
    }

    static func varyNames(_ head: HTTPResponse) -> [String] {
        head.headerFields[values: .vary].flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }.sorted()
    }

    static func value(of name: String, in headers: HTTPFields) -> String? {
        guard let field = HTTPField.Name(name) else { return nil }
        let values = headers[values: field]
        return values.isEmpty ? nil : values.joined(separator: ", ")
    }

    /// The response's current age (RFC 9111 §4.2.3).
    func age(at now: Date) -> TimeInterval {
        let dateValue = head.headerFields[.date].flatMap { Date(headerValue: $0) } ?? responseTime
        let ageValue = head.headerFields[.age].flatMap { TimeInterval($0.trimmingCharacters(in: .whitespaces)) }.map { max(0, $0) } ?? 0
        let apparentAge = max(0, responseTime.timeIntervalSince(dateValue))
        let responseDelay = max(0, responseTime.timeIntervalSince(requestTime))
        let correctedInitialAge = max(apparentAge, ageValue + responseDelay)
        return correctedInitialAge + max(0, now.timeIntervalSince(responseTime))
    }

    /// How long the response is fresh for (RFC 9111 §4.2.1), heuristics capped at `cap`.
    func freshnessLifetime(cap: Duration) -> TimeInterval {
        let control = control
        if let maxAge = control.maxAge { return TimeInterval(maxAge) }
        let fields = head.headerFields
        if let expires = fields[.expires] {
            // An `Expires` that does not read is in the past (§5.3).
            guard let expiry = Date(headerValue: expires) else { return 0 }
            let date = fields[.date].flatMap { Date(headerValue: $0) } ?? responseTime
            return max(0, expiry.timeIntervalSince(date))
        }
        guard Self.heuristicStatuses.contains(head.status.code) || control.isPublic,
            let lastModified = fields[.lastModified].flatMap({ Date(headerValue: $0) })
        else { return 0 }
        let date = fields[.date].flatMap { Date(headerValue: $0) } ?? responseTime
        let capSeconds = Double(cap.components.seconds) + Double(cap.components.attoseconds) / 1e18
        return min(max(0, date.timeIntervalSince(lastModified)) / 10, capSeconds)
    }

    /// The stored head with `Age` set to `age`, as the cache returns it (§4).
    func returned(age: TimeInterval) -> HTTPResponse {
        var head = head
        head.headerFields[.age] = String(Int(age.rounded(.down)))
        return head
    }

    /// This response updated by the header fields of a `304` that validated it (§4.3.4).
    func updated(by notModified: HTTPResponse, requestTime: Date, responseTime: Date) -> CachedResponse {
        var updated = self
        var fields = head.headerFields
        for name in Set(notModified.headerFields.map(\.name)) where !Self.unstored.contains(name) && name != .contentLength {
            fields[values: name] = notModified.headerFields[values: name]
        }
        updated.head.headerFields = fields
        updated.requestTime = requestTime
        updated.responseTime = responseTime
        return updated
    }
}

extension HTTPField.Name {
    fileprivate static let keepAlive = HTTPField.Name("Keep-Alive")!
}
