import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPTypes

extension URLRequest {
    /// Sets `fields` as one dictionary: `addValue` would rewrite each name's case on Linux.
    /// Repeated fields are joined as HTTP allows, cookies with "; ".
    mutating func setHeaderFields(_ fields: HTTPFields) {
        var names: [String: String] = [:]
        var values: [String: String] = [:]
        for field in fields {
            let key = field.name.canonicalName
            let name = names[key] ?? field.name.rawName
            names[key] = name
            let separator = field.name == .cookie ? "; " : ", "
            values[name] = values[name].map { $0 + separator + field.value } ?? field.value
        }
        allHTTPHeaderFields = values
    }
}

extension HTTPRequest.Method {
    /// GET, HEAD, OPTIONS, TRACE, PUT and DELETE (RFC 9110 §9.2.2).
    var isIdempotent: Bool {
        switch self {
        case .get, .head, .options, .trace, .put, .delete: true
        default: false
        }
    }
}

/// A streamed body's reader fell too far behind the network: URLSession on Linux cannot pause a
/// transfer, so the transport stops it rather than hold an ever-growing backlog.
package struct URLSessionBodyOverrun: Error, CustomStringConvertible {
    /// The most bytes the transport holds unread.
    package let limit: Int
    /// What went wrong, with the limit.
    package var description: String {
        "the response body arrived more than \(limit) bytes ahead of its reader; URLSession cannot pause a transfer, so it was stopped"
    }
}

/// A compressed response body that inflated past `URLSessionHTTPTransport`'s `maxInflation` times
/// its size on the wire: a decompression bomb, stopped while it arrives.
package struct DecompressionLimitExceeded: Error, CustomStringConvertible {
    /// The ratio allowed.
    package let ratio: Int
    /// The most bytes this body could inflate to.
    package let limit: Int
    /// What went wrong, with the limit.
    package var description: String { "the compressed response body inflated past \(limit) bytes (\(ratio) times its size on the wire)" }
}

/// A response whose `Content-Length` values disagree (RFC 9112 §6.3: the framing cannot be
/// trusted), refused before its body is read.
package struct ConflictingContentLength: Error, CustomStringConvertible {
    /// The values received, as URLSession reported them.
    package let values: String
    /// What went wrong, with the values.
    package var description: String { "the response has conflicting Content-Length values: \(values)" }
}
