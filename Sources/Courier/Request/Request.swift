public import Foundation
import HTTPTypes

/// A complete request: what to send (a ``RequestBuilder``) and how to turn the response into a
/// `Value`.
///
/// Every front-end produces one of these and ``Provider/send(_:)`` runs it.
public struct Request<Value>: Sendable {
    /// What to send.
    public var builder: RequestBuilder
    let decode: @Sendable (Response, any ResponseBodyDecoder) throws(CourierError) -> Value
    /// Applied when the request is sent, after every other part, so that no later step can lose
    /// it.
    var authentication: AuthenticationProvider?
    /// The longest the request may take, from start to decoded value.
    var timeout: Duration?

    init(
        _ builder: RequestBuilder,
        decode: @escaping @Sendable (Response, any ResponseBodyDecoder) throws(CourierError) -> Value
    ) {
        self.builder = builder
        self.decode = decode
    }
}

extension Request {
    /// A request whose successful response body decodes into `Value` with the response decoder.
    /// An empty body is an error, unless `Value` is optional: then it is `nil`.
    public init(_ builder: RequestBuilder, decoding type: Value.Type) where Value: Decodable & SendableMetatype {
        self.init(builder) { response, decoder throws(CourierError) in
            try response.decode(Value.self, using: decoder)
        }
    }

    /// A request whose response body is returned as bytes; an empty body is an error.
    public init(_ builder: RequestBuilder, decoding type: Data.Type) where Value == Data {
        self.init(builder) { response, _ throws(CourierError) in
            try response.validate()
            guard let body = response.body else { throw CourierError(.emptyBody(expected: "Data"), response: response) }
            return body
        }
    }

    /// A request whose response body is returned as bytes, `nil` when empty.
    public init(_ builder: RequestBuilder, decoding type: Data?.Type) where Value == Data? {
        self.init(builder) { response, _ throws(CourierError) in
            try response.validate()
            return response.body
        }
    }

    /// A request whose response body is returned as text, in the charset the response names
    /// (UTF-8 when it names none); an empty body is the empty string.
    public init(_ builder: RequestBuilder, decoding type: String.Type) where Value == String {
        self.init(builder) { response, _ throws(CourierError) in
            try response.validate()
            guard let body = response.body else { return "" }
            return try ResponseDecoding.text(from: body, response: response)
        }
    }

    /// A request whose response only has to succeed.
    public init(_ builder: RequestBuilder, decoding type: Void.Type) where Value == Void {
        self.init(builder) { response, _ throws(CourierError) in
            try response.validate()
        }
    }

    /// A request that returns the response as it is, whatever its status; read
    /// ``Response/error`` to learn whether it failed.
    public init(_ builder: RequestBuilder, decoding type: Response.Type) where Value == Response {
        self.init(builder) { response, _ in response }
    }

    /// A request that returns both the decoded body and the response.
    public init<T: Decodable & SendableMetatype>(_ builder: RequestBuilder, decoding type: (T, Response).Type) where Value == (T, Response) {
        let inner = Request<T>(builder, decoding: T.self)
        self.init(builder) { response, decoder throws(CourierError) in
            (try inner.decode(response, decoder), response)
        }
    }
}

/// Types that an empty response body decodes into: `nil` for any optional.
protocol EmptyBodyDecodable {
    static var emptyBodyValue: Self { get }
}

extension Optional: EmptyBodyDecodable {
    static var emptyBodyValue: Self { nil }
}

enum ResponseDecoding {
    static func decode<T: Decodable>(
        _ type: T.Type,
        from body: Data,
        using decoder: any ResponseBodyDecoder,
        response: Response
    ) throws(CourierError) -> T {
        do {
            return try decoder.decode(T.self, from: body)
        } catch {
            throw CourierError(.decoding(type: "\(T.self)", bodyPrefix: prefix(of: body), error), response: response)
        }
    }

    static func text(from body: Data, response: Response) throws(CourierError) -> String {
        let charset = response.headers[.contentType].flatMap(charsetParameter) ?? "utf-8"
        let encoding: String.Encoding =
            switch charset {
            case "utf-8", "utf8": .utf8
            case "iso-8859-1", "latin1": .isoLatin1
            case "us-ascii", "ascii": .ascii
            case "utf-16": .utf16
            case "windows-1252": .windowsCP1252
            default: .utf8
            }
        guard let text = String(data: body, encoding: encoding) else {
            let error = DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "the bytes are not valid \(charset)"))
            throw CourierError(.decoding(type: "String", bodyPrefix: prefix(of: body), error), response: response)
        }
        return text
    }

    static func charsetParameter(_ contentType: String) -> String? {
        for parameter in contentType.split(separator: ";").dropFirst() {
            let parts = parameter.split(separator: "=", maxSplits: 1)
            guard parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces).lowercased() == "charset" else { continue }
            return parts[1].trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "\"")).lowercased()
        }
        return nil
    }

    /// The first bytes of a body as text, for error messages.
    static func prefix(of body: Data, limit: Int = 200) -> String {
        let text = String(decoding: body.prefix(limit), as: UTF8.self)
        return body.count > limit ? text + "…" : text
    }
}
