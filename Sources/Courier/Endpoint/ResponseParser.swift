public import Foundation

/// Turns a successful response into a value. The catalogue: ``DataParser``, ``StringParser``,
/// ``JSONParser``, ``DictionaryParser``, ``NoContentParser``, ``StringConvertibleParser``;
/// conform your own type for anything else.
///
/// ```swift
/// let count = try await provider.send(RequestBuilder(method: .get, path: "/count"), parser: .value(Int.self))
/// ```
public protocol ResponseParser: Sendable {
    associatedtype Output
    /// The `Accept` header sent with requests parsed by this parser, unless they set one.
    var acceptedContentType: String? { get }
    /// Reads `response`, which has a 2xx status.
    func parse(_ response: Response) throws -> Output
}

extension ResponseParser {
    public var acceptedContentType: String? { nil }
}

/// The body's bytes, empty when there is no body.
public struct DataParser: ResponseParser {
    public init() {}
    public func parse(_ response: Response) throws -> Data { response.body ?? Data() }
}

/// The body as text in the charset the response names, UTF-8 when it names none.
public struct StringParser: ResponseParser {
    public init() {}
    public var acceptedContentType: String? { "text/plain" }
    public func parse(_ response: Response) throws -> String {
        guard let body = response.body else { return "" }
        return try ResponseDecoding.text(from: body, response: response)
    }
}

/// The body decoded from JSON as `T`.
public struct JSONParser<T: Decodable>: ResponseParser {
    public let decoder: JSONDecoder
    public init(_ type: T.Type = T.self, decoder: JSONDecoder = JSONDecoder()) { self.decoder = decoder }
    public var acceptedContentType: String? { "application/json" }
    public func parse(_ response: Response) throws -> T {
        try ResponseDecoding.decode(T.self, from: response.body ?? Data(), using: decoder, response: response)
    }
}

/// The body as a JSON object of ``JSONValue``s.
public struct DictionaryParser: ResponseParser {
    public init() {}
    public var acceptedContentType: String? { "application/json" }
    public func parse(_ response: Response) throws -> [String: JSONValue] {
        try ResponseDecoding.decode([String: JSONValue].self, from: response.body ?? Data(), using: JSONDecoder(), response: response)
    }
}

/// Nothing: only the status is checked.
public struct NoContentParser: ResponseParser {
    public init() {}
    public func parse(_ response: Response) throws {}
}

/// The body's text read as a value such as `Int`, `Double` or `Bool`.
public struct StringConvertibleParser<T: LosslessStringConvertible>: ResponseParser {
    public init(_ type: T.Type = T.self) {}
    public var acceptedContentType: String? { "text/plain" }
    public func parse(_ response: Response) throws -> T {
        let text = try StringParser().parse(response).trimmingCharacters(in: .whitespacesAndNewlines)
        guard let value = T(text) else {
            let error = DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "'\(text)' is not a \(T.self)"))
            throw CourierError(.decoding(type: "\(T.self)", bodyPrefix: String(text.prefix(200)), error), response: response)
        }
        return value
    }
}

extension ResponseParser where Self == DataParser { public static var data: DataParser { DataParser() } }
extension ResponseParser where Self == StringParser { public static var string: StringParser { StringParser() } }
extension ResponseParser where Self == DictionaryParser { public static var dictionary: DictionaryParser { DictionaryParser() } }
extension ResponseParser where Self == NoContentParser { public static var noContent: NoContentParser { NoContentParser() } }
extension ResponseParser {
    /// JSON decoded as `type`.
    public static func json<T: Decodable>(_ type: T.Type, decoder: JSONDecoder = JSONDecoder()) -> JSONParser<T> where Self == JSONParser<T> {
        JSONParser(type, decoder: decoder)
    }
    /// Text read as `type`.
    public static func value<T: LosslessStringConvertible>(_ type: T.Type) -> StringConvertibleParser<T> where Self == StringConvertibleParser<T> {
        StringConvertibleParser(type)
    }
}

/// Any JSON value.
public enum JSONValue: Sendable, Hashable, Codable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() { self = .null }
        else if let value = try? container.decode(Bool.self) { self = .bool(value) }
        else if let value = try? container.decode(Double.self) { self = .number(value) }
        else if let value = try? container.decode(String.self) { self = .string(value) }
        else if let value = try? container.decode([JSONValue].self) { self = .array(value) }
        else { self = .object(try container.decode([String: JSONValue].self)) }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }
}

extension Provider {
    /// Sends `builder`, checks for a 2xx status and reads the response with `parser`.
    public func send<P: ResponseParser>(_ builder: RequestBuilder, parser: P) async throws(CourierError) -> P.Output {
        try await send(Self.parsing(builder, with: parser))
    }

    /// Sends `endpoint`, checks for a 2xx status, runs its validation and reads the response with
    /// `parser`.
    public func send<E: Endpoint, P: ResponseParser>(_ endpoint: E, parser: P) async throws(CourierError) -> P.Output {
        try await send(Self.parsing(endpoint.makeRequest(), with: parser), validating: endpoint.validate)
    }

    static func parsing<P: ResponseParser>(_ builder: RequestBuilder, with parser: P) -> Request<P.Output> {
        var builder = builder
        if builder.headers[.accept] == nil, let accept = parser.acceptedContentType { builder.headers[.accept] = accept }
        return Request<P.Output>(builder) { response, _ throws(CourierError) in
            try response.validate()
            do {
                return try parser.parse(response)
            } catch let error as CourierError {
                throw error
            } catch {
                throw CourierError(.decoding(type: "\(P.Output.self)", bodyPrefix: ResponseDecoding.prefix(of: response.body ?? Data()), error), response: response)
            }
        }
    }
}
