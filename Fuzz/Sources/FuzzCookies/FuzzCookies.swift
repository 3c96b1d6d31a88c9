// Set-Cookie parsing and the cookie jar.
//
// Input: the first byte picks the request URLs and the clock; the rest is text whose lines are
// Set-Cookie values. Each line goes through `Response.splitJoinedSetCookie` and
// `__fuzzCookie(setCookie:)` as the server sent it, then all lines through a `CookieJar`, as an
// `HTTPField` value (the form every transport hands over) and raw, and the jar's `Cookie` header
// is checked. Courier's whitespace trimming must also give what Foundation's does.
@_spi(Fuzzing) import Courier
import Foundation
import FuzzDriver
import HTTPTypes

private let origins: [(String, String)] = [
    ("https://example.com/a/b", "https://example.com/a/b/c"),
    ("http://Example.COM/", "http://example.com/"),
    ("https://api.example.com/v1/login", "http://api.example.com/v1/users"),
    ("https://example.com", "https://example.com/"),
    ("https://[::1]:8443/x", "https://[::1]:8443/x/y"),
    ("https://example.com/a", "https://other.example/a"),
]

private let now = Date(timeIntervalSince1970: 1_790_000_000)

private func containsControl(_ text: String) -> Bool {
    text.unicodeScalars.contains { $0 == "\r" || $0 == "\n" || $0 == "\0" }
}

/// Every character a cookie name or value may carry, as RFC 6265 allows them on the wire: printable
/// ASCII and the space (a value may hold inner spaces). Only such cookies must survive re-reading.
private func isPlainASCII(_ text: String) -> Bool {
    text.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F }
}

private func check(_ line: String) {
    // Courier trims what Foundation trims, from whole lines and from each piece between `;`.
    for piece in [Substring(line)] + line.split(separator: ";") {
        let piece = String(piece)
        // Between two printable ASCII characters other than the space there is nothing to trim,
        // which is known without asking Foundation (whose bridging costs more than this check).
        func plain(_ scalar: Unicode.Scalar?) -> Bool { scalar.map { $0.value > 0x20 && $0.value < 0x7F } ?? false }
        let untouched = plain(piece.unicodeScalars.first) && plain(piece.unicodeScalars.last)
        guard __fuzzTrimmingWhitespace(piece) == (untouched ? piece : piece.trimmingCharacters(in: .whitespaces)) else {
            fatalError("trimming differs from Foundation's for \(piece.debugDescription)")
        }
    }
    let pieces = __fuzzSplitJoinedSetCookie(line)
    for piece in pieces {
        guard !piece.isEmpty else { fatalError("splitJoinedSetCookie returned an empty piece for \(line.debugDescription)") }
        guard let cookie = __fuzzCookie(setCookie: piece) else { continue }
        guard !cookie.name.isEmpty else { fatalError("a cookie with an empty name from \(piece.debugDescription)") }
        // Characters, as the parser splits: `;` followed by a combining mark is one character, not a
        // separator (a string search for ";" would find it inside).
        func has(_ text: String, _ separator: Character) -> Bool { text.contains { $0 == separator } }
        guard !has(cookie.name, ";"), !has(cookie.value, ";"), !has(cookie.name, "=") else {
            fatalError("name or value kept a separator: \(cookie.name.debugDescription)=\(cookie.value.debugDescription)")
        }
        // `name=value` (what the jar sends) reads back as the same cookie.
        if isPlainASCII(cookie.name), isPlainASCII(cookie.value) {
            guard let again = __fuzzCookie(setCookie: cookie.description), again.name == cookie.name, again.value == cookie.value else {
                fatalError("\(cookie.description.debugDescription) does not read back as the same cookie")
            }
        }
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    guard count > 0 else { return 0 }
    let bytes = UnsafeRawBufferPointer(start: start, count: count)
    let selector = Int(bytes[0])
    let text = String(decoding: bytes.dropFirst(), as: UTF8.self)
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)

    for line in lines { check(line) }

    let (from, to) = origins[selector % origins.count]
    let later = now.addingTimeInterval(TimeInterval((selector / origins.count) * 3600))
    // As a transport delivers them: header values never hold CR, LF or NUL.
    let fields = lines.map { HTTPField(name: .setCookie, value: $0).value }
    let header = __fuzzCookieHeader(receiving: fields, from: URL(string: from)!, sendingTo: URL(string: to)!, now: now, later: later)
    if let header {
        guard !header.isEmpty else { fatalError("an empty Cookie header") }
        guard !containsControl(header) else { fatalError("Cookie header with CR, LF or NUL: \(header.debugDescription)") }
        guard HTTPField.isValidValue(header) || !fields.allSatisfy(HTTPField.isValidValue) else {
            fatalError("Cookie header is not a valid field value: \(header.debugDescription)")
        }
    }
    // Raw strings (no transport in between) may not crash the jar either; where no line needed
    // mending as a field value they are the same input, already run.
    if !fields.elementsEqual(lines, by: { $0.utf8.elementsEqual($1.utf8) }) {
        _ = __fuzzCookieHeader(receiving: lines, from: URL(string: from)!, sendingTo: URL(string: to)!, now: now, later: later)
    }
    return 0
}

@main
enum Main {
    static func main() { runLibFuzzer(fuzz) }
}
