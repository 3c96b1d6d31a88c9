import CoreMetrics
import Foundation
import HTTPTypes
import Instrumentation
import Logging
import OpenAPIRuntime
import Tracing

extension RequestObserver {
    // MARK: Describing

    /// `raw` described, made from `template`; `base` describes its base URL when it is the
    /// provider's.
    static func describe(_ raw: RawRequest, template: String?, base: BaseURLParts?, queryValues: Observability.QueryValues) -> Description {
        var description = Description()
        description.operationID = raw.operationID
        describeMethod(raw.method, into: &description)
        let parts = BaseURLParts.of(raw, template: template, provider: base)
        description.server = parts.host
        description.port = parts.port
        description.template = template.map { Self.template($0, basePath: parts.path) }
        description.url = parts.origin + parts.path + redacted(raw.path, queryValues)
        description.settle()
        return description
    }

    private static let knownMethods: Set<HTTPRequest.Method> = [.get, .head, .post, .put, .delete, .connect, .options, .trace, .patch]

    static func describeMethod(_ method: HTTPRequest.Method, into description: inout Description) {
        if knownMethods.contains(method) {
            description.method = method.rawValue
        } else {
            description.method = "_OTHER"
            description.originalMethod = method.rawValue
        }
    }

    /// The path template as the conventions write it: the base path before it, `{name}` for
    /// `:name`, no query.
    static func template(_ path: String, basePath: String) -> String {
        let bytes = Array(path.utf8)
        var output: [UInt8] = []
        output.reserveCapacity(basePath.utf8.count + bytes.count + 4)
        output.append(contentsOf: basePath.utf8)
        if output.last == UInt8(ascii: "/") { output.removeLast() }
        if bytes.first != UInt8(ascii: "/") { output.append(UInt8(ascii: "/")) }
        var index = 0
        while index < bytes.count, bytes[index] != UInt8(ascii: "?") {
            let byte = bytes[index]
            let segmentStart = index == 0 || bytes[index - 1] == UInt8(ascii: "/")
            if byte == UInt8(ascii: ":"), segmentStart, index + 1 < bytes.count, RequestBuilder.isIdentifierByte(bytes[index + 1]) {
                // `:name`, up to the first byte that cannot be in a name.
                var end = index + 1
                while end < bytes.count, RequestBuilder.isIdentifierByte(bytes[end]) { end += 1 }
                output.append(UInt8(ascii: "{"))
                output.append(contentsOf: bytes[(index + 1)..<end])
                output.append(UInt8(ascii: "}"))
                index = end
            } else {
                output.append(byte)
                index += 1
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// `target` with each query value written as `REDACTED` unless `queryValues` shows it.
    static func redacted(_ target: String, _ queryValues: Observability.QueryValues) -> String {
        guard let mark = target.firstIndex(of: "?") else { return target }
        if case .all = queryValues { return target }
        let query = target[target.index(after: mark)...]
        let items = query.split(separator: "&", omittingEmptySubsequences: false).map { item -> String in
            guard let equals = item.firstIndex(of: "=") else { return String(item) }
            let name = item[..<equals]
            if case .only(let shown) = queryValues, shown.contains(PercentDecoding.decode(name) ?? String(name)) {
                return String(item)
            }
            return "\(name)=REDACTED"
        }
        return target[..<mark] + "?" + items.joined(separator: "&")
    }

    static func attributes(of description: Description) -> SpanAttributes {
        var attributes = SpanAttributes()
        attributes["http.request.method"] = description.method
        if let original = description.originalMethod { attributes["http.request.method_original"] = original }
        attributes["server.address"] = description.server
        attributes["server.port"] = description.port
        attributes["url.full"] = description.url
        if let template = description.template { attributes["url.template"] = template }
        attributes["courier.operation"] = description.operationID
        return attributes
    }

    /// The conventions' `error.type`: the status code for a status, and otherwise the kind.
    static func errorType(_ error: CourierError) -> String {
        if error.kind == .status, let code = error.response?.head.status.code { return String(code) }
        return error.kind.description
    }

    static func nanoseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(nanoseconds(duration)) / 1e9
    }
}

/// What spans and metrics say of a base URL, worked out once per provider: Foundation's URL
/// accessors cost microseconds each on Linux.
struct BaseURLParts: Sendable {
    /// The URL these are the parts of.
    let url: URL
    /// `scheme://host[:port]`, without credentials.
    let origin: String
    /// The scheme as written.
    let scheme: String?
    /// `host[:port]`, without credentials; an IPv6 host in brackets.
    let authority: String?
    /// The path, percent-encoded, without a trailing slash.
    let path: String
    let host: String
    /// The port, the scheme's default when none is written.
    let port: Int

    init(_ url: URL) {
        self.url = url
        scheme = url.scheme
        authority = url.authorityHost.map { host in url.port.map { "\(host):\($0)" } ?? host }
        origin = "\(url.scheme ?? "http")://\(authority ?? "")"
        var path = url.percentEncodedBasePath
        while path.hasSuffix("/") { path.removeLast() }
        self.path = path
        host = url.host ?? ""
        port = url.port ?? (url.scheme?.lowercased() == "https" ? 443 : 80)
    }
}

extension BaseURLParts {
    /// The parts of `raw`'s base URL: `provider`'s, worked out once, when `raw` goes to the
    /// provider's base URL; worked out now when it goes elsewhere (an absolute URL, or a base URL
    /// a hook replaced).
    static func of(_ raw: RawRequest, template: String?, provider: BaseURLParts?) -> BaseURLParts {
        if template != nil, let provider, raw.baseURL == provider.url { return provider }
        return BaseURLParts(raw.baseURL)
    }
}
