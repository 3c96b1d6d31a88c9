import Foundation
import HTTPTypes

/// One stored response: its head and body, the request field values its `Vary` names, and when
/// it was asked for and received — what its age and freshness are worked out from (RFC 9111 §4.2).
struct CachedResponse: Sendable {
    let key: String
    /// The stored head; its directives are read once, into `control`, whenever it changes.
    private(set) var head: HTTPResponse
    /// The head's `Cache-Control`, read once rather than on every lookup.
    private(set) var control: CacheControl
    let body: Data
    /// The request's value of each field the response's `Vary` names, lower-cased names sorted.
    let varyValues: [String: String]
    var requestTime: Date
    var responseTime: Date

    init(key: String, head: HTTPResponse, body: Data, varyValues: [String: String], requestTime: Date, responseTime: Date) {
        self.key = key
        self.head = head
        self.control = CacheControl(head.headerFields)
        self.body = body
        self.varyValues = varyValues
        self.requestTime = requestTime
        self.responseTime = responseTime
    }

    /// The statuses a response may be stored with, and made fresh by heuristics, without explicit
    /// freshness (RFC 9110 §15.1).
    static let heuristicStatuses: Set<Int> = [200, 203, 204, 206, 300, 301, 308, 404, 405, 410, 414, 501]
    /// Header fields a cache does not store or update: the connection's own (RFC 9110 §7.6.1)
    /// and the proxy's (RFC 9111 §3.1), beside the ones `Connection` names.
    static let unstored: Set<HTTPField.Name> = [
        .connection, .transferEncoding, .proxyAuthenticate, .proxyAuthorization, .keepAlive, .proxyAuthenticationInfo,
        .proxyConnection, .te, .upgrade,
    ]

    /// `unstored` and the fields `fields`' `Connection` names.
    static func unstored(in fields: HTTPFields) -> Set<HTTPField.Name> {
        let named = fields[values: .connection].flatMap { $0.split(separator: ",") }
            .compactMap { HTTPField.Name($0.trimmingCharacters(in: .whitespaces)) }
        return unstored.union(named)
    }

    var size: Int { body.count + head.headerFields.reduce(0) { $0 + $1.name.rawName.utf8.count + $1.value.utf8.count + 4 } + key.utf8.count }
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
        let ageValue = Self.ageValue(head.headerFields)
        let apparentAge = max(0, responseTime.timeIntervalSince(dateValue))
        let responseDelay = max(0, responseTime.timeIntervalSince(requestTime))
        let correctedInitialAge = max(apparentAge, ageValue + responseDelay)
        // At most 2^31 seconds, like every delta-seconds (RFC 9111 §1.2.2): a far-off `Date` or
        // `Age` makes no age too large to state.
        return min(correctedInitialAge + max(0, now.timeIntervalSince(responseTime)), TimeInterval(CacheControl.deltaSecondsLimit))
    }

    /// How long the response is fresh for (RFC 9111 §4.2.1), heuristics capped at `cap`.
    func freshnessLifetime(cap: Duration) -> TimeInterval {
        if let maxAge = control.maxAge { return TimeInterval(maxAge) }
        let fields = head.headerFields
        if let expires = fields[.expires] {
            // An `Expires` that is not an HTTP date is in the past (§5.3).
            guard let expiry = Self.httpDate(expires) else { return 0 }
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
        let skipped = Self.unstored(in: notModified.headerFields)
        for name in Set(notModified.headerFields.map(\.name)) where !skipped.contains(name) && name != .contentLength {
            fields[values: name] = notModified.headerFields[values: name]
        }
        updated.head.headerFields = fields
        updated.control = CacheControl(fields)
        updated.requestTime = requestTime
        updated.responseTime = responseTime
        return updated
    }
}

extension CachedResponse {
    /// The `Age` in seconds: the first member of the field, when it is a whole number (RFC 9111
    /// §5.1); anything else is ignored.
    static func ageValue(_ fields: HTTPFields) -> TimeInterval {
        guard let first = fields[values: .age].first?.split(separator: ",", omittingEmptySubsequences: false).first else { return 0 }
        let text = first.trimmingCharacters(in: .whitespaces)
        guard !text.isEmpty, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else { return 0 }
        return min(TimeInterval(text) ?? .infinity, TimeInterval(CacheControl.deltaSecondsLimit))
    }

    /// `text` read as an HTTP date only when it is in one of the three forms RFC 9110 §5.6.7
    /// defines, exactly: IMF-fixdate, the obsolete RFC 850 form, or asctime's.
    static func httpDate(_ text: String) -> Date? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let day = "(Mon|Tue|Wed|Thu|Fri|Sat|Sun)", month = "(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)"
        let forms = [
            "^\(day), [0-9]{2} \(month) [0-9]{4} [0-9]{2}:[0-9]{2}:[0-9]{2} GMT$",
            "^(Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday), [0-9]{2}-\(month)-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2} GMT$",
            "^\(day) \(month) ( [0-9]|[0-9]{2}) [0-9]{2}:[0-9]{2}:[0-9]{2} [0-9]{4}$",
        ]
        guard forms.contains(where: { trimmed.range(of: $0, options: .regularExpression) != nil }) else { return nil }
        return Date(headerValue: trimmed)
    }
}

extension HTTPField.Name {
    fileprivate static let keepAlive = HTTPField.Name("Keep-Alive")!
    fileprivate static let proxyAuthenticationInfo = HTTPField.Name("Proxy-Authentication-Info")!
    fileprivate static let proxyConnection = HTTPField.Name("Proxy-Connection")!
}
