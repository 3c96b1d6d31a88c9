public import Foundation

/// A type a response header can be read as: `String`, `Int`, `Double`, `Bool`, `Date` (HTTP
/// date or ISO 8601), `URL`, or your own.
public protocol HeaderValue: Sendable {
    /// The value of `text`, or `nil` when it cannot be read as this type.
    init?(headerValue text: String)
}

extension HeaderValue where Self: LosslessStringConvertible {
    /// Reads the value from its text, ignoring surrounding spaces (HTTP strips them anyway).
    public init?(headerValue text: String) { self.init(text.trimmingWhitespace()) }
}

// Each reads its own text form through the default above.
extension String: HeaderValue {}
extension Int: HeaderValue {}
extension Int64: HeaderValue {}
extension Double: HeaderValue {}

extension Bool: HeaderValue {
    /// Reads `true`, `1` or `yes` as true and `false`, `0` or `no` as false, in any letter case,
    /// ignoring surrounding spaces.
    public init?(headerValue text: String) {
        switch text.trimmingWhitespace().lowercased() {
        case "true", "1", "yes": self = true
        case "false", "0", "no": self = false
        default: return nil
        }
    }
}

extension URL: HeaderValue {
    /// Reads a URL from the header, ignoring surrounding spaces; `nil` when `URL(string:)` refuses it.
    public init?(headerValue text: String) { self.init(string: text.trimmingWhitespace()) }
}

extension Date: HeaderValue {
    /// An HTTP date — `Wed, 21 Oct 2026 07:28:00 GMT`, or one of the obsolete forms
    /// `Wednesday, 21-Oct-26 07:28:00 GMT` and `Wed Oct 21 07:28:00 2026` — or an ISO 8601 date.
    ///
    /// A two-digit year is 1970–2069, as cookie dates read it (RFC 6265 §5.1.1): `70` is 1970, the
    /// year of the dates servers send to remove a cookie, and `50` is 2050. An HTTP date before
    /// 1601 is refused rather than read as a year of the first millennium (`Wed, 21 Oct 26 …`
    /// with the preferred form's four-digit year cut short is read as 2026, not as the year 26).
    public init?(headerValue text: String) {
        let trimmed = text.trimmingWhitespace()
        // Both forms are ASCII; other text is refused before it reaches `DateFormatter`, which
        // traps on some of it on Linux (`Incorrect range CFRange…`).
        guard trimmed.utf8.allSatisfy({ $0 < 0x80 }) else { return nil }
        // The form nearly every server sends, read without a formatter when it is exactly that form.
        if let date = IMFFixdate.date(trimmed) {
            self = date
            return
        }
        if let date = try? Date(trimmed, strategy: .iso8601) {
            self = date
            return
        }
        // The preferred HTTP date, then the two obsolete forms a recipient must still read
        // (RFC 9110 §5.6.7), with runs of spaces (asctime pads the day) made single.
        if let date = HTTPDateFormats.imfFixdate.date(from: trimmed) {
            self = date
            return
        }
        let collapsed = trimmed.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
        guard let date = HTTPDateFormats.rfc850.date(from: collapsed) ?? HTTPDateFormats.asctime.date(from: collapsed) else { return nil }
        self = date
    }
}

/// The date formats of HTTP, each one formatter made once: making a `DateFormatter` costs far
/// more than parsing with one (a response with many cookies carrying `Expires` made one per
/// cookie), and a formatter is not safe to share between threads, so each is used under a lock.
enum HTTPDateFormats {
    /// IMF-fixdate: `Sun, 06 Nov 1994 08:49:37 GMT`.
    static let imfFixdate = Shared("EEE, dd MMM yyyy HH:mm:ss zzz")
    /// RFC 850: `Sunday, 06-Nov-94 08:49:37 GMT`.
    static let rfc850 = Shared("EEEE, dd-MMM-yy HH:mm:ss zzz")
    /// asctime: `Sun Nov  6 08:49:37 1994`.
    static let asctime = Shared("EEE MMM d HH:mm:ss yyyy")
    /// 1 January 1601, the earliest date a cookie date may be (RFC 6265 §5.1.1). A formatter reads a
    /// year of fewer digits than its pattern asks for as written, so `26` in the preferred form
    /// would otherwise be the year 26.
    static let earliest = Date(timeIntervalSince1970: -11_644_473_600)

    /// One formatter in the POSIX locale and GMT, behind a lock.
    struct Shared: Sendable {
        private let formatter: Locked<DateFormatter>

        init(_ format: String) {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "GMT")
            formatter.dateFormat = format
            // Two-digit years are 1970–2069 (RFC 6265 §5.1.1), not ICU's 80 years back and 20 ahead.
            formatter.twoDigitStartDate = Date(timeIntervalSince1970: 0)
            self.formatter = Locked(formatter)
        }

        /// The date `text` writes in this format, `nil` before ``HTTPDateFormats/earliest``. The
        /// caller makes sure `text` is ASCII: other text can trap inside `DateFormatter` on Linux.
        func date(from text: String) -> Date? {
            guard let date = formatter.withLock({ $0.date(from: text) }), date >= HTTPDateFormats.earliest else { return nil }
            return date
        }
    }
}

extension Response {
    /// For generated code: the header `name` read as `T`; an error naming the header when it is
    /// missing or cannot be read as `T`.
    public func __header<T: HeaderValue>(_ name: String, as type: T.Type) throws(CourierError) -> T {
        guard let value = try __optionalHeader(name, as: T.self) else {
            throw CourierError(.missingHeader(name: name), response: self)
        }
        return value
    }

    /// For generated code: the header `name` read as `T`, `nil` when missing; an error naming the
    /// header when it is present but cannot be read as `T`.
    public func __optionalHeader<T: HeaderValue>(_ name: String, as type: T.Type) throws(CourierError) -> T? {
        guard let fieldName = HTTPField.Name(name), let text = headers[fieldName] else { return nil }
        guard let value = T(headerValue: text) else {
            throw CourierError(.unreadableHeader(name: name, value: text, type: "\(T.self)"), response: self)
        }
        return value
    }
}
