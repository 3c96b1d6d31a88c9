public import Foundation

// Entry points for the libFuzzer targets in `Fuzz/`: one small function per parser that reads
// what a server sends. They exist so that a release build can reach the internal parsers
// (`@testable import` needs `-enable-testing`). Nothing here is API: the `__` prefix keeps them out
// of DocC and completion, and they are reached only as `@_spi(Fuzzing) import Courier`, from fuzz
// harnesses.

/// The wait a `Retry-After` value asks for at `now`, as the retry policy reads it; `nil` when
/// it is neither a number of seconds nor an HTTP date.
@_spi(Fuzzing)
public func __fuzzRetryAfter(_ value: String, now: Date) -> Duration? {
    RetryAfter.parse(value, now: now)
}

/// The links of one `Link` header value, as pagination reads them: each target with its
/// relation types (lower-cased) and parameters.
@_spi(Fuzzing)
public func __fuzzLinks(_ value: String) -> [(target: String, relations: [String], parameters: [String: String])] {
    LinkHeader.parse(value).map { ($0.target, $0.relations, $0.parameters) }
}

/// Splits a `Set-Cookie` value that a transport joined with commas, as ``Response/cookies`` does.
@_spi(Fuzzing)
public func __fuzzSplitJoinedSetCookie(_ value: String) -> [String] {
    Response.splitJoinedSetCookie(value)
}

/// The cookie one `Set-Cookie` value holds, as ``Response/cookies`` reads it; `nil` when it has
/// no `name=value` pair.
@_spi(Fuzzing)
public func __fuzzCookie(setCookie header: String) -> Cookie? {
    Cookie(setCookie: header)
}

/// Gives `setCookies` (the `Set-Cookie` values of one response from `origin`) to a new
/// ``CookieJar`` at `now`, and returns the `Cookie` header it sends to `target` at `later`.
@_spi(Fuzzing)
public func __fuzzCookieHeader(receiving setCookies: [String], from origin: URL, sendingTo target: URL, now: Date, later: Date) -> String? {
    let jar = CookieJar()
    jar.receive(setCookies, from: origin, now: now)
    return jar.header(for: target, now: later)
}

/// `text` percent-decoded as forms and query names are read (with `plusAsSpace`, `+` is a
/// space); `nil` when a `%` is not followed by two hexadecimal digits or the bytes are not UTF-8.
@_spi(Fuzzing)
public func __fuzzPercentDecoded(_ text: String, plusAsSpace: Bool) -> String? {
    PercentDecoding.decode(text, plusAsSpace: plusAsSpace)
}

/// `text` without the leading and trailing whitespace the header and cookie parsers trim.
@_spi(Fuzzing)
public func __fuzzTrimmingWhitespace(_ text: String) -> String {
    text.trimmingWhitespace()
}

/// Parses URL-form text into its tree and summarises it: the number of text leaves, the
/// number of nodes, and the deepest nesting.
@_spi(Fuzzing)
public func __fuzzFormTreeShape(_ text: String) -> (leaves: Int, nodes: Int, depth: Int) {
    func walk(_ value: FormValue, depth: Int, into shape: inout (leaves: Int, nodes: Int, depth: Int)) {
        shape.nodes += 1
        shape.depth = max(shape.depth, depth)
        switch value {
        case .text: shape.leaves += 1
        case .list(let items): for item in items { walk(item, depth: depth + 1, into: &shape) }
        case .members(let members): for (_, item) in members { walk(item, depth: depth + 1, into: &shape) }
        }
    }
    var shape = (leaves: 0, nodes: 0, depth: 0)
    walk(FormValue.parse(text), depth: 0, into: &shape)
    return shape
}

/// The `charset` parameter of a `Content-Type` value, as text responses read it.
@_spi(Fuzzing)
public func __fuzzCharsetParameter(_ contentType: String) -> String? {
    ResponseDecoding.charsetParameter(contentType)
}
