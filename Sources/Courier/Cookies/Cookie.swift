import Foundation

/// A cookie: sent in a request's `Cookie` header, or read from a response's `Set-Cookie`.
public struct Cookie: Sendable, Hashable, CustomStringConvertible {
    /// The cookie's name, the part before `=` in `Cookie` and `Set-Cookie`.
    public var name: String
    /// The cookie's value, as sent in `Cookie` and received in `Set-Cookie`.
    public var value: String
    /// `Path`, `Domain`, `Expires`, `Max-Age`, `SameSite`… as the server sent them; a flag such
    /// as `Secure` or `HttpOnly` with an empty value (`attributes["Secure"] == ""`).
    public var attributes: [String: String]

    /// A cookie with `name` and `value`, to send or to compare against; no attributes unless given.
    public init(name: String, value: String, attributes: [String: String] = [:]) {
        self.name = name
        self.value = value
        self.attributes = attributes
    }

    /// Whether the server marked it `Secure`: a ``CookieJar`` sends it over HTTPS only.
    public var isSecure: Bool { hasFlag("secure") }

    /// Whether the server marked it `HttpOnly`: a browser keeps it from scripts; Courier sends it
    /// as any other.
    public var isHTTPOnly: Bool { hasFlag("httponly") }

    /// Whether an attribute named `lowercasedName`, in any case, is present.
    private func hasFlag(_ lowercasedName: String) -> Bool {
        attributes.keys.contains { $0.lowercased() == lowercasedName }
    }

    /// Reads one `Set-Cookie` value; `nil` when it has no `name=value` pair.
    init?(setCookie header: String) {
        var parts = header.split(separator: ";", omittingEmptySubsequences: true).makeIterator()
        guard let pair = parts.next(), let equals = pair.firstIndex(of: "=") else { return nil }
        let name = pair[..<equals].trimmingWhitespace()
        guard !name.isEmpty else { return nil }
        self.init(name: name, value: pair[pair.index(after: equals)...].trimmingWhitespace())
        while let attribute = parts.next() {
            // Empty pieces are kept: an attribute of just `=` splits into two empty ones, not none.
            let pieces = attribute.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let key = pieces[0].trimmingWhitespace()
            guard !key.isEmpty else { continue }
            attributes[key] = pieces.count > 1 ? pieces[1].trimmingWhitespace() : ""
        }
    }

    /// `name=value`, as the cookie is sent in a `Cookie` header; attributes are left out.
    public var description: String { "\(name)=\(value)" }
}

extension Response {
    /// The cookies of every `Set-Cookie` header. Where a transport joins repeated headers into one
    /// value (URLSession on Linux), they are split again at commas that start a new
    /// `name=value` pair.
    public var cookies: [Cookie] {
        headers[values: .setCookie].flatMap(Self.splitJoinedSetCookie).compactMap(Cookie.init(setCookie:))
    }

    /// Splits `a=1; Path=/, b=2; Expires=Wed, 21 Oct 2026 07:28:00 GMT` into its two cookies: a
    /// comma starts a new cookie only when what follows looks like `name=` before any `;`.
    static func splitJoinedSetCookie(_ value: String) -> [String] {
        var result: [String] = []
        var start = value.startIndex
        var index = value.startIndex
        while let comma = value[index...].firstIndex(of: ",") {
            index = value.index(after: comma)
            let head = value[index...].prefix { $0 != ";" && $0 != "," }
            if let equals = head.firstIndex(of: "="), !head[..<equals].trimmingWhitespace().contains(" ") {
                result.append(String(value[start..<comma]))
                start = index
            }
        }
        result.append(String(value[start...]))
        return result.map { $0.trimmingWhitespace() }.filter { !$0.isEmpty }
    }
}

extension RequestBuilder {
    /// For generated code (`@RequestCookies`): adds cookies to the request's `Cookie` header
    /// (every transport sends them as one header). Code of your own adds the header:
    /// `addHeader(.cookie, value: "name=value")`.
    public mutating func __addCookies(_ cookies: [Cookie]) {
        for cookie in cookies { appendCookie(cookie.name, cookie.value) }
    }

    /// For generated code (`@API`'s `CookieValue` parameters): adds the cookie `name` with
    /// `value`'s text, or nothing for `nil`.
    @_disfavoredOverload
    public mutating func __addCookie<T: CustomStringConvertible>(_ name: String, value: T?) {
        guard let value else { return }
        appendCookie(name, value.description)
    }

    /// For generated code: adds the cookie `name` with `value`'s raw value (a string enum's).
    public mutating func __addCookie<T: RawRepresentable>(_ name: String, value: T?) where T.RawValue: CustomStringConvertible {
        guard let value else { return }
        appendCookie(name, value.rawValue.description)
    }

    /// Adds `name=value` to the `Cookie` header, each byte of `value` that a cookie's value cannot
    /// hold (RFC 6265 §4.1.1: space, `"`, `,`, `;`, `\`, controls, non-ASCII) percent-encoded: a
    /// `;` would otherwise start another cookie. A value already percent-encoded stays as it is.
    private mutating func appendCookie(_ name: String, _ value: String) {
        appendHeader(.cookie, name + "=" + Self.cookieOctets(value), replacing: false)
    }

    static func cookieOctets(_ text: String) -> String {
        func allowed(_ byte: UInt8) -> Bool {
            byte == 0x21 || (0x23...0x2B).contains(byte) || (0x2D...0x3A).contains(byte) || (0x3C...0x5B).contains(byte) || (0x5D...0x7E).contains(byte)
        }
        guard !text.utf8.allSatisfy(allowed) else { return text }
        let hex = Array("0123456789ABCDEF".utf8)
        var bytes: [UInt8] = []
        for byte in text.utf8 {
            if allowed(byte) { bytes.append(byte) } else { bytes += [0x25, hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]] }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
