public import Courier
public import Foundation
import XMLCoder

/// Writes request bodies as XML with XMLCoder, the root element named after the type unless
/// `rootKey` says otherwise.
public struct XMLBodyEncoder: BodyEncoder, KeyMappingCoder {
    /// The root element's name; the value's type name when `nil`.
    var rootKey: String?
    /// Whether to start with `<?xml version="1.0" encoding="UTF-8"?>`.
    var includesHeader: Bool
    /// How keys are spelled.
    var keyMapping: KeyMapping

    /// An encoder with the root element named `rootKey` (the type's name when `nil`), an XML declaration unless
    /// `includesHeader` is `false`, and keys spelled as `keyMapping` says.
    public init(rootKey: String? = nil, includesHeader: Bool = true, keyMapping: KeyMapping = .useDefaultKeys) {
        self.rootKey = rootKey
        self.includesHeader = includesHeader
        self.keyMapping = keyMapping
    }

    /// Always `application/xml; charset=utf-8`, as the body is written in UTF-8.
    public var contentType: String { "application/xml; charset=utf-8" }

    /// A copy of this encoder that spells keys as `keyMapping` says.
    package func mapping(_ keyMapping: KeyMapping) -> any Sendable {
        var copy = self
        copy.keyMapping = keyMapping
        return copy
    }

    /// Writes `value` as an XML document; a value without keys or elements at the top level, such as
    /// a bare string, throws an `EncodingError` instead.
    public func encode<T: Encodable>(_ value: T) throws -> Data {
        // XMLCoder stops the process on a top-level value that is not a keyed or unkeyed
        // container; refuse those here with an error instead.
        guard XMLShape.isContainer(value) else {
            throw EncodingError.invalidValue(
                value,
                .init(codingPath: [], debugDescription: "an XML body needs a value with keys or elements at the top level, not \(T.self)")
            )
        }
        let encoder = XMLEncoder()
        let mapping = keyMapping
        encoder.keyEncodingStrategy = .custom { path in XMLKey(mapping.encode(path.last?.stringValue ?? "")) }
        let header = includesHeader ? XMLHeader(version: 1.0, encoding: "UTF-8") : nil
        return try encoder.encode(value, withRootKey: rootKey, header: header)
    }
}

/// Reads XML response bodies with XMLCoder.
public struct XMLBodyDecoder: BodyDecoder, KeyMappingCoder {
    /// How the document's keys are mapped back to property names.
    var keyMapping: KeyMapping

    /// A decoder that maps keys back as `keyMapping` says, unchanged by default.
    public init(keyMapping: KeyMapping = .useDefaultKeys) { self.keyMapping = keyMapping }

    /// A copy of this decoder that maps keys back as `keyMapping` says.
    package func mapping(_ keyMapping: KeyMapping) -> any Sendable {
        var copy = self
        copy.keyMapping = keyMapping
        return copy
    }

    /// Decodes a `T` from the XML document in `data`, keys mapped back as `keyMapping` says.
    public func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        let decoder = XMLDecoder()
        let mapping = keyMapping
        decoder.keyDecodingStrategy = .custom { path in XMLKey(mapping.decode(path.last?.stringValue ?? "")) }
        return try decoder.decode(T.self, from: data)
    }
}

struct XMLKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(_ string: String) { stringValue = string }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

extension BodyFormat {
    /// XML: request bodies with the root element named after the body's type, responses read
    /// with ``XMLBodyDecoder`` and asked for with `Accept: application/xml`.
    public static var xml: BodyFormat { .xml(rootKey: nil) }
    /// XML with a root element of your choosing (the body's type name for `nil`).
    public static func xml(rootKey: String?) -> BodyFormat {
        BodyFormat(encoder: XMLBodyEncoder(rootKey: rootKey), decoder: XMLBodyDecoder(), accept: "application/xml")
    }
}
