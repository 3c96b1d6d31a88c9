import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if canImport(CourierHTTPClientTransport)
import CourierHTTPClientTransport
#endif

/// A TLS handshake that failed on URLSession, with its reason named.
struct URLSessionTLSFailure: TLSFailureReporting, CustomStringConvertible {
    let tlsFailure: TLSFailure
    /// URLSession's error.
    let error: any Error

    var description: String { tlsFailure.description }
}

extension URLSessionHTTPTransport {
    /// `error` as a named TLS failure when URLSession reports one: by its code on Apple
    /// platforms; on Linux, where FoundationNetworking passes libcurl's words on under code -1,
    /// by those words, and by a look at the server's certificate where the words cannot tell.
    static func tlsFailure(_ error: any Error, url: URL) async -> URLSessionTLSFailure? {
        let nsError = error as NSError
        guard nsError.domain == NSURLErrorDomain else { return nil }
        let text = ([nsError.localizedDescription] + [(nsError.userInfo[NSUnderlyingErrorKey] as? NSError)?.localizedDescription].compactMap { $0 })
            .joined(separator: "; ")
        var reason: TLSFailure.Reason
        switch nsError.code {
        case NSURLErrorServerCertificateHasBadDate: reason = .expired
        case NSURLErrorServerCertificateNotYetValid: reason = .notYetValid
        case NSURLErrorServerCertificateUntrusted, NSURLErrorServerCertificateHasUnknownRoot: reason = .unknownAuthority
        case NSURLErrorClientCertificateRejected: reason = .clientCertificateRejected
        case NSURLErrorClientCertificateRequired: reason = .clientCertificateRequired
        case NSURLErrorSecureConnectionFailed: reason = .handshake
        default:
            let lower = text.lowercased()
            guard lower.contains("ssl") || lower.contains("tls") || lower.contains("certificate") else { return nil }
            if lower.contains("subject name") || lower.contains("does not match") || lower.contains("hostname") {
                reason = .wrongHost
            } else if lower.contains("expired") {
                reason = .expired
            } else if lower.contains("not yet valid") {
                reason = .notYetValid
            } else if lower.contains("self-signed") || lower.contains("self signed") {
                reason = .selfSigned
            } else if lower.contains("certificate") {
                reason = .unknownAuthority
            } else if lower.contains("version") || lower.contains("cipher") {
                reason = .protocolMismatch
            } else {
                reason = .handshake
            }
        }
        var detail = text
        #if canImport(CourierHTTPClientTransport)
        // libcurl names the first problem it meets, often the issuer before the dates: read the
        // certificate, over a connection that sends nothing, to name what is wrong with it.
        if [.unknownAuthority, .selfSigned, .expired, .notYetValid].contains(reason), let host = url.host,
            let found = await CertificateInspection.inspect(host: host, port: url.port ?? 443)
        {
            reason = TLSFailure.Reason(name: found.reason)
            detail = found.detail + "; URLSession: " + text
        }
        #endif
        return URLSessionTLSFailure(tlsFailure: TLSFailure(host: url.host ?? "?", reason: reason, detail: detail), error: error)
    }
}
