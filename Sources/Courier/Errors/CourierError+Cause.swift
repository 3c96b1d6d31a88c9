import Foundation
import HTTPTypes

extension CourierError {
    /// Every reason Courier fails, with the item and value involved. Internal so that causes can
    /// be added without breaking users; the public face is ``CourierError/kind``.
    enum Cause: Sendable {
        case invalidBaseURL(String)
        case unsafeBaseURL(String)
        case requestTargetTooLong(length: Int, limit: Int)
        case invalidMethod(String)
        case missingPathParameter(name: String, path: String)
        case unusedPathParameter(name: String, path: String)
        case unsafePathValue(name: String, value: String)
        case malformedPath(path: String, reason: String)
        case invalidHeaderName(String)
        case invalidHeaderValue(name: String, value: String)
        case bodyAndFields
        case textNotEncodable(charset: String)
        case encoding(what: String, any Error)
        case modifier(stage: String, any Error)
        case middleware(stage: String, any Error)
        case transport(any Error)
        case timeout(any Error)
        case cancelled((any Error)?)
        case responseTooLarge(limit: Int)
        case download(path: String, any Error)
        case status(HTTPResponse.Status)
        case emptyBody(expected: String)
        case decoding(type: String, bodyPrefix: String, any Error)
        case unmocked(operationID: String, detail: String?)
        case missingHeader(name: String)
        case unreadableHeader(name: String, value: String, type: String)
        case validation(stage: String, any Error)
        case refreshFailed(any Error)
        case tls(TLSFailure, (any Error)?)
        case tlsConfiguration(String)
        case insecureRedirect(from: String, to: String)
        case proxy(String)

        var kind: Kind {
            switch self {
            case .invalidBaseURL, .unsafeBaseURL, .requestTargetTooLong, .invalidMethod, .missingPathParameter, .unusedPathParameter,
                .unsafePathValue, .malformedPath, .invalidHeaderName, .invalidHeaderValue, .bodyAndFields:
                .invalidRequest
            case .textNotEncodable, .encoding: .encoding
            case .modifier: .modifier
            case .middleware: .middleware
            case .transport, .download: .transport
            case .responseTooLarge: .responseTooLarge
            case .timeout: .timeout
            case .cancelled: .cancelled
            case .status: .status
            case .emptyBody, .decoding, .missingHeader, .unreadableHeader: .decoding
            case .validation: .validation
            case .unmocked: .unmocked
            case .refreshFailed: .authentication
            case .tls: .tls
            case .tlsConfiguration: .tlsConfiguration
            case .insecureRedirect: .insecureRedirect
            case .proxy: .proxy
            }
        }

        var underlyingError: (any Error)? {
            switch self {
            case .encoding(_, let error), .modifier(_, let error), .middleware(_, let error), .validation(_, let error),
                .transport(let error), .timeout(let error), .decoding(_, _, let error), .download(_, let error),
                .refreshFailed(let error):
                error
            case .cancelled(let error), .tls(_, let error): error
            default: nil
            }
        }

        var stage: String? {
            switch self {
            case .modifier(let stage, _), .middleware(let stage, _), .validation(let stage, _): stage
            default: nil
            }
        }

        var message: String {
            switch self {
            case .invalidBaseURL(let value):
                "the base URL \(quoted(value)) is not an absolute http or https URL"
            case .unsafeBaseURL(let value):
                "the base URL \(quoted(value)) contains whitespace or a control character; it was not sent"
            case .requestTargetTooLong(let length, let limit):
                "the request target is \(length) bytes, longer than the provider's limit of \(limit) bytes (maxRequestTargetLength); it was not sent"
            case .invalidMethod(let value):
                "the method \(quoted(value)) is not a valid HTTP method token"
            case .missingPathParameter(let name, let path):
                "the path \(quoted(path)) has a placeholder '\(name)' but no value was given for it"
            case .unusedPathParameter(let name, let path):
                "a value was given for the path parameter '\(name)' but the path \(quoted(path)) has no placeholder of that name"
            case .unsafePathValue(let name, let value):
                "the value \(quoted(value)) of path parameter '\(name)' would make its segment empty, '.' or '..', which removes or climbs a path segment"
            case .malformedPath(let path, let reason):
                "the path \(quoted(path)) is malformed: \(reason)"
            case .invalidHeaderName(let name):
                "the header name \(quoted(name)) is not a valid HTTP field name"
            case .invalidHeaderValue(let name, let value):
                "the value \(quoted(value)) of header '\(name)' contains CR, LF or NUL; it was not sent"
            case .bodyAndFields:
                "the request has more than one of a body, separate fields and multipart parts; use one of them"
            case .textNotEncodable(let charset):
                "the text body cannot be represented in the charset \(charset)"
            case .encoding(let what, let error):
                "\(what) could not be encoded: \(describe(error))"
            case .modifier(let stage, let error):
                "request modifier \(stage) threw: \(describe(error))"
            case .middleware(let stage, let error):
                "middleware \(stage) threw: \(describe(error))"
            case .transport(let error):
                "the transport threw: \(describe(error))"
            case .timeout(let error):
                "the request timed out: \(describe(error))"
            case .cancelled:
                "the request was cancelled"
            case .responseTooLarge(let limit):
                "the response body exceeded the limit of \(limit) bytes"
            case .download(let path, let error):
                "the response body could not be written to '\(path)': \(describe(error))"
            case .status(let status):
                "the server answered \(status.code) \(status.displayPhrase)"
            case .emptyBody(let expected):
                "the response body is empty but \(expected) was expected"
            case .decoding(let type, let prefix, let error):
                "could not decode \(type) from the response body: \(describe(error)); the body starts with \(quoted(prefix))"
            case .missingHeader(let name):
                "the response has no '\(name)' header, which is required"
            case .unreadableHeader(let name, let value, let type):
                "the response header '\(name)' is \(quoted(value)), which cannot be read as \(type)"
            case .validation(let stage, let error):
                "\(stage) rejected the response: \(describe(error))"
            case .refreshFailed(let error):
                "the credential could not be refreshed: \(describe(error))"
            case .tls(let failure, _):
                failure.description
            case .tlsConfiguration(let problem):
                problem
            case .proxy(let problem):
                problem
            case .insecureRedirect(let from, let to):
                "the redirect from \(from) to \(to) leaves HTTPS for plain HTTP and was not followed; RedirectPolicy.follow(allowingInsecure: true) allows it"
            case .unmocked(let operationID, let detail):
                "no mock answers \(operationID)" + (detail.map { ": \($0)" } ?? "")
            }
        }
    }
}

/// Quotes a user-supplied value with control characters made visible.
func quoted(_ value: String) -> String {
    var result = "'"
    for scalar in value.unicodeScalars {
        switch scalar {
        case "\r": result += "\\r"
        case "\n": result += "\\n"
        case "\0": result += "\\0"
        case "\t": result += "\\t"
        case "'": result += "\\'"
        default: result.unicodeScalars.append(scalar)
        }
    }
    return result + "'"
}

/// A readable account of an error, with a decoding error's coding path spelled out.
func describe(_ error: any Error) -> String {
    if let error = error as? CourierError { return error.message }
    guard let decodingError = error as? DecodingError else { return String(describing: error) }
    func path(_ keys: [any CodingKey]) -> String {
        let joined = keys.map { key in key.intValue.map { "[\($0)]" } ?? ".\(key.stringValue)" }.joined()
        return joined.isEmpty ? "the top level" : "'" + joined.drop(while: { $0 == "." }) + "'"
    }
    switch decodingError {
    case .typeMismatch(let type, let context):
        return "type mismatch at \(path(context.codingPath)): expected \(type); \(context.debugDescription)"
    case .valueNotFound(let type, let context):
        return "missing value at \(path(context.codingPath)): expected \(type); \(context.debugDescription)"
    case .keyNotFound(let key, let context):
        return "missing key '\(key.stringValue)' at \(path(context.codingPath))"
    case .dataCorrupted(let context):
        return "corrupted data at \(path(context.codingPath)): \(context.debugDescription)"
    @unknown default:
        return String(describing: decodingError)
    }
}
