import Foundation

/// Finds out whether a value encodes as a container, without encoding it fully: the first
/// container or single value it asks for settles it.
enum XMLShape {
    static func isContainer(_ value: some Encodable) -> Bool {
        let probe = ShapeProbe()
        try? value.encode(to: probe)
        return probe.result == .container
    }
}

final class ShapeProbe: Encoder {
    enum Shape { case unknown, container, single }
    var result: Shape = .unknown
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    struct Stop: Error {}

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if result == .unknown { result = .container }
        return KeyedEncodingContainer(NullKeyed<Key>())
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if result == .unknown { result = .container }
        return NullUnkeyed()
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        if result == .unknown { result = .single }
        return NullSingle()
    }
}

/// Containers that accept and drop everything: the probe only needs the first request.
struct NullKeyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
    var codingPath: [any CodingKey] { [] }
    mutating func encodeNil(forKey key: Key) throws {}
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {}
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        KeyedEncodingContainer(NullKeyed<NestedKey>())
    }
    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer { NullUnkeyed() }
    mutating func superEncoder() -> any Encoder { ShapeProbe() }
    mutating func superEncoder(forKey key: Key) -> any Encoder { ShapeProbe() }
}

struct NullUnkeyed: UnkeyedEncodingContainer {
    var codingPath: [any CodingKey] { [] }
    var count: Int { 0 }
    mutating func encodeNil() throws {}
    mutating func encode<T: Encodable>(_ value: T) throws {}
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        KeyedEncodingContainer(NullKeyed<NestedKey>())
    }
    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { NullUnkeyed() }
    mutating func superEncoder() -> any Encoder { ShapeProbe() }
}

struct NullSingle: SingleValueEncodingContainer {
    var codingPath: [any CodingKey] { [] }
    mutating func encodeNil() throws {}
    mutating func encode<T: Encodable>(_ value: T) throws {}
}
