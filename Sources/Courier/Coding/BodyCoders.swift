public import Foundation

/// Turns a request body value into bytes, and says what `Content-Type` they are.
///
/// Courier ships `JSONEncoder` and ``URLFormEncoder`` conformances; conform your own type to
/// send another format, and implement ``with(keyMapping:)`` for it to follow the provider's and
/// the request's key mapping.
public protocol BodyEncoder: Sendable {
    /// The `Content-Type` of what ``encode(_:)`` produces, parameters included.
    var contentType: String { get }
    /// Encodes `value` as this encoder's format.
    func encode<T: Encodable>(_ value: T) throws -> Data
    /// A copy of this encoder that writes keys as `keyMapping` says.
    func with(keyMapping: KeyMapping) -> any BodyEncoder
}

extension BodyEncoder {
    /// A copy of this encoder that writes keys as `keyMapping` says. Courier's encoders keep
    /// their other settings: a `JSONEncoder` its formatting, date, data and float strategies and
    /// user info (`useDefaultKeys` keeps its own key strategy), a ``URLFormEncoder`` its array
    /// and date encodings. An encoder of your own that does not implement this is returned as
    /// it is.
    public func with(keyMapping: KeyMapping) -> any BodyEncoder {
        (self as? any KeyMappingCoder)?.mapping(keyMapping) as? any BodyEncoder ?? self
    }
}

/// Turns response bytes into a value.
///
/// Courier ships `JSONDecoder` and ``URLFormDecoder`` conformances; conform your own type to
/// read another format, and implement ``with(keyMapping:)`` for it to follow the provider's and
/// the request's key mapping.
public protocol BodyDecoder: Sendable {
    /// Decodes a `T` from `data`.
    func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T
    /// A copy of this decoder that reads keys as `keyMapping` says.
    func with(keyMapping: KeyMapping) -> any BodyDecoder
}

extension BodyDecoder {
    /// A copy of this decoder that reads keys as `keyMapping` says. Courier's decoders keep
    /// their other settings: a `JSONDecoder` its date, data and float strategies, JSON5 and
    /// top-level options and user info (`useDefaultKeys` keeps its own key strategy). A decoder
    /// of your own that does not implement this is returned as it is.
    public func with(keyMapping: KeyMapping) -> any BodyDecoder {
        (self as? any KeyMappingCoder)?.mapping(keyMapping) as? any BodyDecoder ?? self
    }
}

/// A coder of this package's that knows how to follow a key mapping: the difference the
/// ``BodyEncoder/with(keyMapping:)`` and ``BodyDecoder/with(keyMapping:)`` defaults carry.
package protocol KeyMappingCoder {
    /// A copy of this coder that writes or reads keys as `keyMapping` says.
    func mapping(_ keyMapping: KeyMapping) -> any Sendable
}

struct MappedCodingKey: CodingKey {
    var stringValue: String
    var intValue: Int?
    init(_ string: String) { self.stringValue = string }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) {
        self.stringValue = String(intValue)
        self.intValue = intValue
    }
}

extension MappedCodingKey {
    /// A coder's custom key strategy: the last key of the path through `transform`, array
    /// indexes as they are.
    static func mappingLast(with transform: @escaping @Sendable (String) -> String) -> @Sendable ([any CodingKey]) -> any CodingKey {
        { path in
            guard let last = path.last else { return MappedCodingKey("") }
            if last.intValue != nil { return last }
            return MappedCodingKey(transform(last.stringValue))
        }
    }
}

extension JSONEncoder: BodyEncoder {
    /// Always `application/json`, with no parameters.
    public var contentType: String { "application/json" }
}

extension JSONEncoder: KeyMappingCoder {
    /// A new encoder with this one's formatting, date, data and float strategies and user info, keys written as
    /// `keyMapping` says; `useDefaultKeys` keeps this encoder's own key strategy.
    package func mapping(_ keyMapping: KeyMapping) -> any Sendable {
        let copy = JSONEncoder()
        copy.outputFormatting = outputFormatting
        copy.dateEncodingStrategy = dateEncodingStrategy
        copy.dataEncodingStrategy = dataEncodingStrategy
        copy.nonConformingFloatEncodingStrategy = nonConformingFloatEncodingStrategy
        copy.userInfo = userInfo
        switch keyMapping.storage {
        case .useDefaultKeys: copy.keyEncodingStrategy = keyEncodingStrategy
        case .snakeCase: copy.keyEncodingStrategy = .convertToSnakeCase
        case .custom(let to, _):
            copy.keyEncodingStrategy = .custom(MappedCodingKey.mappingLast(with: to))
        }
        return copy
    }
}

extension JSONDecoder: BodyDecoder {}

extension JSONDecoder: KeyMappingCoder {
    /// A new decoder with this one's date, data and float strategies, JSON5 and top-level options and
    /// user info, keys read as `keyMapping` says; `useDefaultKeys` keeps this decoder's own key strategy.
    package func mapping(_ keyMapping: KeyMapping) -> any Sendable {
        let copy = JSONDecoder()
        copy.dateDecodingStrategy = dateDecodingStrategy
        copy.dataDecodingStrategy = dataDecodingStrategy
        copy.nonConformingFloatDecodingStrategy = nonConformingFloatDecodingStrategy
        copy.allowsJSON5 = allowsJSON5
        copy.assumesTopLevelDictionary = assumesTopLevelDictionary
        copy.userInfo = userInfo
        switch keyMapping.storage {
        case .useDefaultKeys: copy.keyDecodingStrategy = keyDecodingStrategy
        case .snakeCase: copy.keyDecodingStrategy = .convertFromSnakeCase
        case .custom(_, let from):
            copy.keyDecodingStrategy = .custom(MappedCodingKey.mappingLast(with: from))
        }
        return copy
    }
}

/// Encodes values as `application/x-www-form-urlencoded`: nested objects as `a[b]=…`, arrays as
/// ``ArrayEncoding`` says, keys in the order the value encodes them, every byte outside
/// `A–Z a–z 0–9 - . _ ~` percent-encoded (so `+`, `&` and `=` in values survive) and spaces as `+`.
public struct URLFormEncoder: BodyEncoder, KeyMappingCoder {
    /// How arrays are written; `tags[]=a&tags[]=b` unless you choose otherwise.
    var arrayEncoding: ArrayEncoding
    /// How dates are written; ISO 8601 unless you choose otherwise.
    var dateEncoding: FormDateEncoding
    /// How keys are spelled.
    var keyMapping: KeyMapping

    /// An encoder that writes arrays, dates and keys as given; by default `tags[]=a`, ISO 8601 and
    /// the Swift names.
    public init(
        arrayEncoding: ArrayEncoding = .brackets,
        dateEncoding: FormDateEncoding = .iso8601,
        keyMapping: KeyMapping = .useDefaultKeys
    ) {
        self.arrayEncoding = arrayEncoding
        self.dateEncoding = dateEncoding
        self.keyMapping = keyMapping
    }

    /// Always `application/x-www-form-urlencoded`, with no parameters.
    public var contentType: String { "application/x-www-form-urlencoded" }

    /// A copy of this encoder that spells keys as `keyMapping` says.
    package func mapping(_ keyMapping: KeyMapping) -> any Sendable {
        var copy = self
        copy.keyMapping = keyMapping
        return copy
    }

    /// `value` as the form's text (`name=Ada&tags[]=a`), in UTF-8.
    public func encode<T: Encodable>(_ value: T) throws -> Data {
        Data(try encodeToString(value).utf8)
    }

    /// Encodes `value` to the form's text.
    func encodeToString<T: Encodable>(_ value: T) throws -> String {
        let tree = try FormTreeEncoder(keyMapping: keyMapping, dateEncoding: dateEncoding).encode(value)
        guard case .object = tree else {
            throw EncodingError.invalidValue(
                value,
                .init(codingPath: [], debugDescription: "a URL-encoded form needs a keyed value at the top level, not \(T.self)")
            )
        }
        var pairs: [(String, String)] = []
        tree.flatten(key: "", arrays: arrayEncoding, into: &pairs)
        var output: [UInt8] = []
        for (index, pair) in pairs.enumerated() {
            if index > 0 { output.append(UInt8(ascii: "&")) }
            // Brackets that structure a key stay literal; spaces become `+`, as forms write them.
            Self.append(pair.0, to: &output) { PercentEncoding.isUnreserved($0) || $0 == UInt8(ascii: "[") || $0 == UInt8(ascii: "]") }
            output.append(UInt8(ascii: "="))
            Self.append(pair.1, to: &output, allowing: PercentEncoding.isUnreserved)
        }
        return String(decoding: output, as: UTF8.self)
    }

    static func append(_ text: String, to output: inout [UInt8], allowing isAllowed: (UInt8) -> Bool) {
        for byte in text.utf8 {
            if byte == UInt8(ascii: " ") {
                output.append(UInt8(ascii: "+"))
            } else {
                PercentEncoding.append(byte, to: &output, allowing: isAllowed)
            }
        }
    }
}

extension RequestBuilder {
    /// For generated code (`@JSON`): encodes the body and decodes the response as JSON with
    /// these coders; a coder left out stays as it was (the provider's, unless set before).
    public mutating func __useJSON(encoder: JSONEncoder? = nil, decoder: JSONDecoder? = nil) {
        if let encoder { bodyEncoder = encoder } else if !(bodyEncoder is JSONEncoder) { bodyEncoder = Provider.defaultJSONEncoder() }
        if let decoder { bodyDecoder = decoder }
    }
}
