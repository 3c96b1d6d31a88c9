import Foundation
import HTTPTypes

/// The `Cache-Control` directives of a request or a response (RFC 9111 §5.2), from every
/// `Cache-Control` field; `Pragma: no-cache` counts as `no-cache` where there is no
/// `Cache-Control` (§5.4). A directive given twice keeps its most restrictive value; a number
/// that does not read makes `max-age` 0 — stale — and the other numbers absent.
struct CacheControl: Sendable, Equatable {
    var noStore = false
    var noCache = false
    var mustRevalidate = false
    var isPublic = false
    var onlyIfCached = false
    var maxAge: Int?
    /// `max-stale`: absent, without a value (any staleness), or with a bound in seconds.
    var maxStale: MaxStale?
    var minFresh: Int?
    var staleWhileRevalidate: Int?
    var staleIfError: Int?

    enum MaxStale: Sendable, Equatable {
        case any
        case seconds(Int)
    }

    init(_ fields: HTTPFields) {
        let values = fields[values: .cacheControl]
        if values.isEmpty {
            noCache = fields[values: .pragma].contains { $0.lowercased().contains("no-cache") }
            return
        }
        for value in values {
            for directive in value.split(separator: ",") {
                let parts = directive.split(separator: "=", maxSplits: 1)
                let name = parts.first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
                let argument = parts.count > 1 ? parts[1].trimmingCharacters(in: .whitespaces).trimmingCharacters(in: ["\""]) : nil
                read(name, argument)
            }
        }
    }

    /// The largest delta-seconds a cache keeps: 2^31 (RFC 9111 §1.2.2); a larger one means it.
    static let deltaSecondsLimit = 2_147_483_648

    /// `text` as delta-seconds: a number of digits too large for an `Int` is the limit, as is
    /// anything above it.
    private static func deltaSeconds(_ text: String) -> Int? {
        if !text.isEmpty, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }) { return min(Int(text) ?? deltaSecondsLimit, deltaSecondsLimit) }
        return Int(text).map { max(0, $0) }
    }

    private mutating func read(_ name: String, _ argument: String?) {
        let seconds = argument.flatMap(Self.deltaSeconds)
        switch name {
        case "no-store": noStore = true
        case "no-cache": noCache = true
        case "must-revalidate", "proxy-revalidate": mustRevalidate = true
        case "public": isPublic = true
        case "only-if-cached": onlyIfCached = true
        case "max-age": maxAge = min(maxAge ?? .max, seconds ?? 0)
        case "max-stale":
            guard let argument else { return maxStale = maxStale ?? .any }
            guard let seconds = Self.deltaSeconds(argument) else { return }
            if case .seconds(let earlier) = maxStale { maxStale = .seconds(min(earlier, seconds)) } else { maxStale = .seconds(seconds) }
        case "min-fresh": if let seconds { minFresh = max(minFresh ?? 0, seconds) }
        case "stale-while-revalidate": if let seconds { staleWhileRevalidate = min(staleWhileRevalidate ?? .max, seconds) }
        case "stale-if-error": if let seconds { staleIfError = min(staleIfError ?? .max, seconds) }
        default: break
        }
    }
}

extension HTTPField.Name {
    static let pragma = HTTPField.Name("Pragma")!
}
