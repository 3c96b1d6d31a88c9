import Foundation

// Text helpers for the parsers of server input (cookies, forms, header values, dates). Each does
// what a Foundation call did before, with the same result, in Swift: the Foundation calls bridge
// every string through `NSString` on Linux, which was most of the time spent reading a
// `Set-Cookie` header or a form body.

extension Substring {
    /// The text without leading and trailing whitespace: what `trimmingCharacters(in: .whitespaces)`
    /// gives, the same set of characters (the tab, the Unicode space separators, the zero-width
    /// space), without a
    /// trip through `NSString`.
    func trimmingWhitespace() -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.isTrimmedWhitespace }) else { return "" }
        var end = scalars.endIndex
        while end > first {
            let before = scalars.index(before: end)
            guard scalars[before].isTrimmedWhitespace else { break }
            end = before
        }
        return String(Substring(scalars[first..<end]))
    }
}

extension String {
    /// The text without leading and trailing whitespace, as `Substring.trimmingWhitespace()` trims it.
    func trimmingWhitespace() -> String { self[...].trimmingWhitespace() }
}

extension Unicode.Scalar {
    /// In `CharacterSet.whitespaces` as Foundation has it: the tab, the space separators (general
    /// category Zs) and the zero-width space.
    fileprivate var isTrimmedWhitespace: Bool {
        switch value {
        case 0x20, 0x09, 0xA0, 0x1680, 0x2000...0x200B, 0x202F, 0x205F, 0x3000: true
        default: false
        }
    }
}

/// Percent-decoding, as `removingPercentEncoding` does it: each `%` must be followed by two
/// hexadecimal digits, and the bytes must be UTF-8; `nil` otherwise.
enum PercentDecoding {
    /// `text` decoded; with `plusAsSpace` (forms), `+` is a space first.
    static func decode(_ text: some StringProtocol, plusAsSpace: Bool = false) -> String? {
        let utf8 = text.utf8
        // Nothing to do: the text as it is (most keys and many values).
        if !utf8.contains(where: { $0 == UInt8(ascii: "%") || (plusAsSpace && $0 == UInt8(ascii: "+")) }) {
            return String(text)
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count)
        var index = utf8.startIndex
        while index != utf8.endIndex {
            let byte = utf8[index]
            index = utf8.index(after: index)
            switch byte {
            case UInt8(ascii: "%"):
                guard index != utf8.endIndex, let high = hexValue(utf8[index]) else { return nil }
                index = utf8.index(after: index)
                guard index != utf8.endIndex, let low = hexValue(utf8[index]) else { return nil }
                index = utf8.index(after: index)
                bytes.append(high << 4 | low)
            case UInt8(ascii: "+") where plusAsSpace:
                bytes.append(UInt8(ascii: " "))
            default:
                bytes.append(byte)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

/// IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`, RFC 9110 §5.6.7), read without a formatter: the
/// form nearly every server sends, in `Expires`, `Retry-After`, `Date` and `Last-Modified`.
/// Only text in exactly that form, naming a real date whose weekday is right, is read here;
/// anything else is left to the formatters, which read the obsolete forms and are lenient.
enum IMFFixdate {
    private static let weekdays: [[UInt8]] = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"].map { Array($0.utf8) }
    private static let months: [[UInt8]] = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        .map { Array($0.utf8) }

    static func date(_ text: String) -> Date? {
        var text = text
        return text.withUTF8 { date(bytes: $0) }
    }

    private static func date(bytes: UnsafeBufferPointer<UInt8>) -> Date? {
        // "Www, DD Mmm YYYY HH:MM:SS GMT"
        guard bytes.count == 29,
            bytes[3] == UInt8(ascii: ","), bytes[4] == UInt8(ascii: " "), bytes[7] == UInt8(ascii: " "),
            bytes[11] == UInt8(ascii: " "), bytes[16] == UInt8(ascii: " "), bytes[19] == UInt8(ascii: ":"),
            bytes[22] == UInt8(ascii: ":"), bytes[25] == UInt8(ascii: " "),
            bytes[26] == UInt8(ascii: "G"), bytes[27] == UInt8(ascii: "M"), bytes[28] == UInt8(ascii: "T"),
            let weekday = weekdays.firstIndex(where: { $0.elementsEqual(bytes[0..<3]) }),
            let monthIndex = months.firstIndex(where: { $0.elementsEqual(bytes[8..<11]) }),
            let day = number(bytes[5..<7]), let year = number(bytes[12..<16]),
            let hour = number(bytes[17..<19]), let minute = number(bytes[20..<22]), let second = number(bytes[23..<25])
        else { return nil }
        let month = monthIndex + 1
        guard (1900...9999).contains(year), day >= 1, day <= daysIn(month: month, year: year),
            hour < 24, minute < 60, second < 60
        else { return nil }
        let days = daysSince1970(year: year, month: month, day: day)
        // 1 January 1970 was a Thursday (4).
        guard ((days % 7) + 7 + 4) % 7 == weekday else { return nil }
        return Date(timeIntervalSince1970: TimeInterval(days * 86_400 + hour * 3_600 + minute * 60 + second))
    }

    private static func number(_ digits: Slice<UnsafeBufferPointer<UInt8>>) -> Int? {
        var result = 0
        for digit in digits {
            guard digit >= UInt8(ascii: "0"), digit <= UInt8(ascii: "9") else { return nil }
            result = result * 10 + Int(digit - UInt8(ascii: "0"))
        }
        return result
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days from 1970-01-01 to the date, in the proleptic Gregorian calendar.
    private static func daysSince1970(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
