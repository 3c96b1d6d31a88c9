@testable import Courier
import Foundation
import Testing

/// The parsers' own trimming, percent-decoding and IMF-fixdate reading give what the Foundation
/// calls they replace give, over many generated inputs.
struct TextScanningTests {
    /// A fixed-seed generator, so a failure names an input that comes back on the next run.
    struct SplitMix: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    static func strings(from alphabet: [String], count: Int, seed: UInt64) -> [String] {
        var random = SplitMix(state: seed)
        return (0..<count).map { _ in
            (0..<Int.random(in: 0...12, using: &random)).map { _ in alphabet.randomElement(using: &random) ?? "" }.joined()
        }
    }

    @Test func trimmingMatchesFoundation() {
        // Spaces of every kind Foundation trims (tab, space, no-break, ideographic, em), and what it
        // keeps (newline, a combining mark after a space, letters, separators).
        let alphabet = [" ", "\t", "\u{00A0}", "\u{3000}", "\u{2003}", "\n", "\r", "a", "é", "\u{301}", ";", "=", "\u{200B}", "😀"]
        let inputs = Self.strings(from: alphabet, count: 20_000, seed: 1)
        for text in inputs {
            #expect(text.trimmingWhitespace() == text.trimmingCharacters(in: .whitespaces), "\(text.debugDescription)")
            let inner = text.dropFirst()
            #expect(inner.trimmingWhitespace() == inner.trimmingCharacters(in: .whitespaces), "\(inner.debugDescription)")
        }
        #expect("  a b \t".trimmingWhitespace() == "a b")
        #expect(" \u{3000} ".trimmingWhitespace() == "")
    }

    /// Courier's decoding against Foundation's: the same, except that Foundation on Linux makes
    /// some stray UTF-8 continuation bytes (`%A9` alone) a replacement character where it refuses
    /// others (`%80%80`); Courier refuses them all.
    static func agree(_ courier: String?, _ foundation: String?, input: String) -> Bool {
        func replacements(_ text: String) -> Int { text.unicodeScalars.count { $0 == "\u{FFFD}" } }
        if courier == foundation { return true }
        guard courier == nil, let foundation else { return false }
        return replacements(foundation) > replacements(input)
    }

    @Test func percentDecodingMatchesFoundation() {
        // `%` with and without two hex digits, in both cases, bytes that make UTF-8 and bytes that
        // do not (`%C3` alone, `%FF`, `%A9`), `+`, and text that is already decoded.
        let alphabet = ["%", "2", "0", "C", "3", "A", "9", "a", "f", "F", "g", "+", "é", "%C3%A9", "%FF", "%00", " ", "😀", "\u{FFFD}", "\u{64F}"]
        let inputs = Self.strings(from: alphabet, count: 20_000, seed: 2)
        var refusedStray = 0
        for text in inputs {
            #expect(Self.agree(PercentDecoding.decode(text), text.removingPercentEncoding, input: text), "\(text.debugDescription)")
            // `+` is a space wherever it is, as the form encoding says: also before a combining mark,
            // where Foundation's `replacingOccurrences`, which works on whole characters, keeps it.
            let spaced = String(String.UnicodeScalarView(text.unicodeScalars.map { $0 == "+" ? " " : $0 }))
            let decoded = PercentDecoding.decode(text, plusAsSpace: true)
            #expect(Self.agree(decoded, spaced.removingPercentEncoding, input: text), "\(text.debugDescription)")
            if decoded != spaced.removingPercentEncoding { refusedStray += 1 }
        }
        // The exception is rare; everything else is exactly Foundation's answer.
        #expect(refusedStray < inputs.count / 100)
        #expect(PercentDecoding.decode("a%20b+c", plusAsSpace: true) == "a b c")
        #expect(PercentDecoding.decode("100%") == nil)
        #expect(PercentDecoding.decode("%A9") == nil)
        #expect(PercentDecoding.decode("%E2%82%AC%00") == "€\u{0}")
    }

    @Test func formComponentsKeepBadEncodingAsSent() {
        #expect(FormValue.decodeComponent("50%+off") == "50% off")
        #expect(FormValue.decodeComponent("a+%E2%82%AC") == "a €")
        #expect(FormValue.decodeComponent("%A9+x") == "%A9 x")
        #expect(FormValue.decodeComponent("a+\u{64F}%21") == "a \u{64F}!")
        #expect(FormValue.decodeComponent("%A9+\u{64F}") == "%A9 \u{64F}")
    }

    @Test func imfFixdateMatchesTheFormatter() {
        var random = SplitMix(state: 3)
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        // 1900 to 9999, every leap day among them, and whole seconds.
        let first = -2_208_988_800.0, last = 253_402_300_799.0
        var read = 0
        for _ in 0..<20_000 {
            let date = Date(timeIntervalSince1970: Double.random(in: first...last, using: &random).rounded(.down))
            let text = formatter.string(from: date)
            let fast = IMFFixdate.date(text)
            #expect(fast == date, "\(text)")
            #expect(fast == HTTPDateFormats.imfFixdate.date(from: text), "\(text)")
            if fast != nil { read += 1 }
        }
        #expect(read == 20_000)
        #expect(IMFFixdate.date("Tue, 29 Feb 2000 12:00:00 GMT") == Date(timeIntervalSince1970: 951_825_600))
    }

    @Test func imfFixdateLeavesEverythingElseToTheFormatters() {
        // Wrong weekday, a day that does not exist, out-of-range times, another zone, other forms.
        for text in [
            "Mon, 29 Feb 2000 12:00:00 GMT", "Thu, 29 Feb 1900 12:00:00 GMT", "Wed, 31 Apr 2026 00:00:00 GMT",
            "Wed, 21 Oct 2026 24:00:00 GMT", "Wed, 21 Oct 2026 07:60:00 GMT", "Wed, 21 Oct 2026 07:28:00 UTC",
            "Wednesday, 21-Oct-26 07:28:00 GMT", "Wed Oct 21 07:28:00 2026", "Wed, 21 Oct 2026 07:28:00 GMT ",
            "Wed, 21 oct 2026 07:28:00 GMT", "Wed, 2x Oct 2026 07:28:00 GMT",
        ] {
            #expect(IMFFixdate.date(text) == nil, "\(text)")
        }
        // Those the formatters read still come back through `Date(headerValue:)`.
        #expect(Date(headerValue: "Wednesday, 21-Oct-26 07:28:00 GMT") == Date(timeIntervalSince1970: 1_792_567_680))
        #expect(Date(headerValue: " Wed, 21 Oct 2026 07:28:00 GMT ") == Date(timeIntervalSince1970: 1_792_567_680))
    }

    @Test("Two-digit years are 1970–2069; a year cut short in the preferred form is not the first millennium")
    func twoDigitYears() throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try #require(TimeZone(identifier: "GMT"))
        func gmt(_ year: Int, _ month: Int, _ day: Int, _ hour: Int = 0, _ minute: Int = 0, _ second: Int = 0) -> Date? {
            calendar.date(from: DateComponents(year: year, month: month, day: day, hour: hour, minute: minute, second: second))
        }
        #expect(Date(headerValue: "Thu, 01-Jan-70 00:00:01 GMT") == Date(timeIntervalSince1970: 1))
        #expect(Date(headerValue: "Fri, 31-Dec-99 23:59:59 GMT") == gmt(1999, 12, 31, 23, 59, 59))
        #expect(Date(headerValue: "Sat, 01-Jan-00 00:00:00 GMT") == gmt(2000, 1, 1))
        #expect(Date(headerValue: "Friday, 21-Oct-50 07:28:00 GMT") == gmt(2050, 10, 21, 7, 28))
        #expect(Date(headerValue: "Monday, 21-Oct-69 07:28:00 GMT") == gmt(2069, 10, 21, 7, 28))
        // The preferred form with its year cut to two digits was the year 26 (and 19 October,
        // in the Julian calendar); it is 2026, as a cookie date reads it.
        #expect(Date(headerValue: "Wed, 21 Oct 26 07:28:00 GMT") == gmt(2026, 10, 21, 7, 28))
        // Netscape's form of cookie dates: a four-digit year between dashes.
        #expect(Date(headerValue: "Wed, 21-Oct-2026 07:28:00 GMT") == gmt(2026, 10, 21, 7, 28))
        // Three digits are neither; the year 826 is refused, not read.
        #expect(Date(headerValue: "Wed, 21 Oct 826 07:28:00 GMT") == nil)
        #expect(Date(headerValue: "Wed Oct 21 07:28:00 26") == nil)
    }

    @Test("A jar keeps a cookie whose Expires has a two-digit year ahead, and removes one at 70")
    func jarReadsTwoDigitYears() throws {
        let origin = try #require(URL(string: "https://example.com/"))
        let now = Date(timeIntervalSince1970: 1_790_000_000)  // 2026
        let jar = CookieJar()
        jar.receive(["long=1; Expires=Friday, 21-Oct-50 07:28:00 GMT", "short=2; Expires=Wed, 21 Oct 26 07:28:00 GMT"], from: origin, now: now)
        #expect(jar.header(for: origin, now: now) == "long=1; short=2")
        jar.receive(["long=; Expires=Thu, 01-Jan-70 00:00:01 GMT"], from: origin, now: now)
        #expect(jar.header(for: origin, now: now) == "short=2")
    }

    @Test func joinedSetCookieSplitsAtCookieCommasOnly() {
        let joined = "a=1; Path=/, b=2; Expires=Wed, 21 Oct 2026 07:28:00 GMT,c=3 ,, d e=4"
        #expect(Response.splitJoinedSetCookie(joined) == ["a=1; Path=/", "b=2; Expires=Wed, 21 Oct 2026 07:28:00 GMT", "c=3 ,, d e=4"])
        #expect(Response.splitJoinedSetCookie(" , ") == [","])
        #expect(Response.splitJoinedSetCookie("") == [])
    }
}
