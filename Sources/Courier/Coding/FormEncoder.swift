import Foundation

/// Turns any `Encodable` into a ``FormNode`` tree, mapping keys on the way. No reflection: the
/// value's own `encode(to:)` drives it.
struct FormTreeEncoder {
    var keyMapping: KeyMapping = .useDefaultKeys
    var dateEncoding: FormDateEncoding = .iso8601

    func encode(_ value: some Encodable) throws -> FormNode {
        let storage = FormEncodingStorage(options: self)
        try storage.encodeValue(value, codingPath: [])
        return storage.root.node
    }
}

/// A mutable node under construction; containers share them by reference while encoding.
final class FormBox {
    enum Content {
        case empty
        case null
        case value(String)
        case array([FormBox])
        case object([(String, FormBox)])
    }
    var content: Content = .empty

    var node: FormNode {
        switch content {
        case .empty, .null: .null
        case .value(let string): .value(string)
        case .array(let boxes): .array(boxes.map(\.node))
        case .object(let members): .object(members.map { (key: $0.0, value: $0.1.node) })
        }
    }
}

final class FormEncodingStorage {
    let options: FormTreeEncoder
    let root = FormBox()

    init(options: FormTreeEncoder) { self.options = options }

    func encodeValue(_ value: some Encodable, codingPath: [any CodingKey], into box: FormBox? = nil) throws {
        let target = box ?? root
        if let string = Self.scalarString(value, dates: options.dateEncoding) {
            target.content = .value(string)
            return
        }
        let encoder = FormValueEncoder(storage: self, box: target, codingPath: codingPath)
        try value.encode(to: encoder)
    }

    /// Values whose `Encodable` form is not what a query or form wants.
    static func scalarString(_ value: some Encodable, dates: FormDateEncoding) -> String? {
        switch value {
        case let string as String: string
        case let date as Date: dates.format(date)
        case let url as URL: url.absoluteString
        case let data as Data: data.base64EncodedString()
        case let decimal as Decimal: decimal.description
        case let uuid as UUID: uuid.uuidString
        default: nil
        }
    }
}

struct FormValueEncoder: Encoder {
    let storage: FormEncodingStorage
    let box: FormBox
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if case .object = box.content {} else { box.content = .object([]) }
        return KeyedEncodingContainer(FormKeyedContainer<Key>(storage: storage, box: box, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if case .array = box.content {} else { box.content = .array([]) }
        return FormUnkeyedContainer(storage: storage, box: box, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        FormSingleValueContainer(storage: storage, box: box, codingPath: codingPath)
    }
}

struct FormKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let storage: FormEncodingStorage
    let box: FormBox
    let codingPath: [any CodingKey]

    private func child(for key: Key) -> FormBox {
        child(named: storage.options.keyMapping.encode(key.stringValue))
    }

    private func child(named name: String) -> FormBox {
        let child = FormBox()
        if case .object(var members) = box.content {
            members.append((name, child))
            box.content = .object(members)
        }
        return child
    }

    mutating func encodeNil(forKey key: Key) throws { child(for: key).content = .null }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try storage.encodeValue(value, codingPath: codingPath + [key], into: child(for: key))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type,
        forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        let child = child(for: key)
        child.content = .object([])
        return KeyedEncodingContainer(FormKeyedContainer<NestedKey>(storage: storage, box: child, codingPath: codingPath + [key]))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let child = child(for: key)
        child.content = .array([])
        return FormUnkeyedContainer(storage: storage, box: child, codingPath: codingPath + [key])
    }

    mutating func superEncoder() -> any Encoder {
        FormValueEncoder(storage: storage, box: child(named: "super"), codingPath: codingPath)
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        FormValueEncoder(storage: storage, box: child(for: key), codingPath: codingPath + [key])
    }
}

struct FormIndexKey: CodingKey {
    var intValue: Int?
    var stringValue: String { intValue.map(String.init) ?? "" }
    init(_ index: Int) { intValue = index }
    init?(stringValue: String) { nil }
    init?(intValue: Int) { self.intValue = intValue }
}

struct FormUnkeyedContainer: UnkeyedEncodingContainer {
    let storage: FormEncodingStorage
    let box: FormBox
    let codingPath: [any CodingKey]

    var count: Int {
        if case .array(let elements) = box.content { return elements.count }
        return 0
    }

    private func appendChild() -> FormBox {
        let child = FormBox()
        if case .array(var elements) = box.content {
            elements.append(child)
            box.content = .array(elements)
        }
        return child
    }

    mutating func encodeNil() throws { appendChild().content = .null }

    mutating func encode<T: Encodable>(_ value: T) throws {
        let index = count
        try storage.encodeValue(value, codingPath: codingPath + [FormIndexKey(index)], into: appendChild())
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let index = count
        let child = appendChild()
        child.content = .object([])
        return KeyedEncodingContainer(
            FormKeyedContainer<NestedKey>(storage: storage, box: child, codingPath: codingPath + [FormIndexKey(index)])
        )
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let index = count
        let child = appendChild()
        child.content = .array([])
        return FormUnkeyedContainer(storage: storage, box: child, codingPath: codingPath + [FormIndexKey(index)])
    }

    mutating func superEncoder() -> any Encoder {
        FormValueEncoder(storage: storage, box: appendChild(), codingPath: codingPath)
    }
}

struct FormSingleValueContainer: SingleValueEncodingContainer {
    let storage: FormEncodingStorage
    let box: FormBox
    let codingPath: [any CodingKey]

    mutating func encodeNil() throws { box.content = .null }
    mutating func encode(_ value: Bool) throws { box.content = .value(value ? "true" : "false") }
    mutating func encode(_ value: String) throws { box.content = .value(value) }
    mutating func encode(_ value: Double) throws { box.content = .value(try Self.finite(value, codingPath)) }
    mutating func encode(_ value: Float) throws { box.content = .value(try Self.finite(Double(value), codingPath)) }
    mutating func encode(_ value: Int) throws { box.content = .value(String(value)) }
    mutating func encode(_ value: Int8) throws { box.content = .value(String(value)) }
    mutating func encode(_ value: Int16) throws { box.content = .value(String(value)) }
    mutating func encode(_ value: Int32) throws { box.content = .value(String(value)) }
    mutating func encode(_ value: Int64) throws { box.content = .value(String(value)) }
    mutating func encode(_ value: UInt) throws { box.content = .value(String(value)) }
    mutating func encode(_ value: UInt8) throws { box.content = .value(String(value)) }
    mutating func encode(_ value: UInt16) throws { box.content = .value(String(value)) }
    mutating func encode(_ value: UInt32) throws { box.content = .value(String(value)) }
    mutating func encode(_ value: UInt64) throws { box.content = .value(String(value)) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        try storage.encodeValue(value, codingPath: codingPath, into: box)
    }

    static func finite(_ value: Double, _ codingPath: [any CodingKey]) throws -> String {
        guard value.isFinite else {
            throw EncodingError.invalidValue(
                value,
                .init(codingPath: codingPath, debugDescription: "\(value) has no form or query representation")
            )
        }
        if value.rounded() == value, abs(value) < 1e15 { return String(Int64(value)) }
        return String(value)
    }
}
