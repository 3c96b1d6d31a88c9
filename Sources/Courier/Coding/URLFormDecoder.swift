public import Foundation

/// Reads `application/x-www-form-urlencoded` bodies: `a=1&b[c]=2&tags[]=x&tags[]=y`, repeated
/// keys and `key[0]` indexes as arrays, `+` as a space, keys mapped back as the key mapping says.
public struct URLFormDecoder: BodyDecoder, KeyMappingCoder {
    /// How the form's keys are mapped back to property names.
    var keyMapping: KeyMapping

    /// A decoder that maps keys back as `keyMapping` says, unchanged by default.
    public init(keyMapping: KeyMapping = .useDefaultKeys) { self.keyMapping = keyMapping }

    /// A copy of this decoder that maps keys back as `keyMapping` says.
    package func mapping(_ keyMapping: KeyMapping) -> any Sendable {
        var copy = self
        copy.keyMapping = keyMapping
        return copy
    }

    /// Parses `data` as UTF-8 form text and decodes a `T` from its fields, bracketed keys as nested values.
    public func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        let tree = FormValue.parse(String(decoding: data, as: UTF8.self))
        return try T(from: FormValueDecoder(value: tree, codingPath: [], keyMapping: keyMapping))
    }
}

/// A parsed form: text, lists, and keyed members in arrival order. Not `indirect`: the arrays
/// hold the nesting, and without a box around them each can be changed in place.
enum FormValue {
    case text(String)
    case list([FormValue])
    case members(FormMembers)

    static func parse(_ text: String) -> FormValue {
        var root = FormValue.members(FormMembers())
        // Gaps that `key[N]` indexes may open in lists, all lists together: as many as the text has
        // bytes. Without a bound `a[999999999]=1` would allocate a billion empty elements.
        var gapBudget = text.utf8.count
        for pair in text.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let key = decodeComponent(parts[0])
            let value = parts.count > 1 ? decodeComponent(parts[1]) : ""
            root.insert(value, at: path(of: key)[...], gapBudget: &gapBudget)
        }
        return root
    }

    static func decodeComponent(_ text: Substring) -> String {
        // Text that is not valid percent-encoding is kept as it came, with `+` still a space.
        PercentDecoding.decode(text, plusAsSpace: true) ?? String(String.UnicodeScalarView(text.unicodeScalars.map { $0 == "+" ? " " : $0 }))
    }

    /// `a[b][]` → `["a", "b", ""]`.
    static func path(of key: String) -> [String] {
        guard let open = key.firstIndex(of: "[") else { return [key] }
        var path = [String(key[..<open])]
        var rest = key[open...]
        while rest.first == "[", let close = rest.firstIndex(of: "]") {
            path.append(String(rest[rest.index(after: rest.startIndex)..<close]))
            rest = rest[rest.index(after: close)...]
        }
        return path
    }

    /// Inserts `value` at `path`; an index whose gap would exceed `gapBudget` is ignored, as
    /// other keys that are not indexes are inside a list.
    mutating func insert(_ value: String, at path: ArraySlice<String>, gapBudget: inout Int) {
        guard let head = path.first else {
            self = .text(value)
            return
        }
        let rest = path.dropFirst()
        // Each array taken out of `self` is changed in place: `self` lets go of it first, or each
        // insert would copy the whole array (and a form of n keys would cost n² copies).
        switch self {
        case .members(var members):
            self = .text("")
            if let position = members.position(of: head) {
                // A repeated key collects its values into a list.
                if rest.isEmpty { members[position].append(.text(value)) } else { members[position].insert(value, at: rest, gapBudget: &gapBudget) }
            } else {
                var child: FormValue = rest.first.map { $0.isEmpty || Int($0) != nil ? .list([]) : .members(FormMembers()) } ?? .text(value)
                if !rest.isEmpty { child.insert(value, at: rest, gapBudget: &gapBudget) }
                members.append(head, child)
            }
            self = .members(members)
        case .list(var items):
            self = .text("")
            if head.isEmpty {
                var child: FormValue = rest.isEmpty ? .text(value) : .members(FormMembers())
                if !rest.isEmpty { child.insert(value, at: rest, gapBudget: &gapBudget) }
                items.append(child)
            } else if let index = Int(head), index >= 0, index - items.count <= gapBudget {
                if index > items.count { gapBudget -= index - items.count }
                while items.count <= index { items.append(.members(FormMembers())) }
                if rest.isEmpty { items[index] = .text(value) } else { items[index].insert(value, at: rest, gapBudget: &gapBudget) }
            }
            self = .list(items)
        case .text:
            self = .members(FormMembers())
            insert(value, at: path, gapBudget: &gapBudget)
        }
    }

    /// Makes this value a list that ends with `item`: a list gets it appended, anything else
    /// becomes the first of two.
    mutating func append(_ item: FormValue) {
        guard case .list(var items) = self else {
            self = .list([self, item])
            return
        }
        self = .text("")
        items.append(item)
        self = .list(items)
    }
}

/// A form's keyed values in arrival order, each key once, found by key in constant time: a body
/// of n distinct keys is read in O(n), not n² comparisons.
struct FormMembers: Sequence {
    private var entries: [(String, FormValue)] = []
    private var positions: [String: Int] = [:]

    init() {}

    init(_ pairs: some Sequence<(String, FormValue)>) {
        for (key, value) in pairs { append(key, value) }
    }

    func position(of key: String) -> Int? { positions[key] }

    /// Adds `value` under `key`, which must not be here yet.
    mutating func append(_ key: String, _ value: FormValue) {
        positions[key] = entries.count
        entries.append((key, value))
    }

    subscript(position: Int) -> FormValue {
        get { entries[position].1 }
        _modify { yield &entries[position].1 }
    }

    func makeIterator() -> IndexingIterator<[(String, FormValue)]> { entries.makeIterator() }
}

struct FormValueDecoder: Decoder {
    let value: FormValue
    let codingPath: [any CodingKey]
    let keyMapping: KeyMapping
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .members(let members) = value else {
            throw DecodingError.typeMismatch([String: Any].self, .init(codingPath: codingPath, debugDescription: "expected keyed form values"))
        }
        var byKey: [String: FormValue] = [:]
        for (key, value) in members { byKey[keyMapping.decode(key)] = value }
        return KeyedDecodingContainer(FormKeyed<Key>(members: byKey, codingPath: codingPath, keyMapping: keyMapping))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        switch value {
        case .list(let items): FormUnkeyed(items: items, codingPath: codingPath, keyMapping: keyMapping)
        default: FormUnkeyed(items: [value], codingPath: codingPath, keyMapping: keyMapping)
        }
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        FormSingle(value: value, codingPath: codingPath)
    }
}

struct FormKeyed<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let members: [String: FormValue]
    let codingPath: [any CodingKey]
    let keyMapping: KeyMapping
    var allKeys: [Key] { members.keys.compactMap(Key.init(stringValue:)) }

    func contains(_ key: Key) -> Bool { members[key.stringValue] != nil }

    func child(_ key: Key) throws -> FormValue {
        guard let value = members[key.stringValue] else {
            throw DecodingError.keyNotFound(key, .init(codingPath: codingPath, debugDescription: "no form value for '\(key.stringValue)'"))
        }
        return value
    }

    func decodeNil(forKey key: Key) throws -> Bool { members[key.stringValue] == nil }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try T(from: FormValueDecoder(value: child(key), codingPath: codingPath + [key], keyMapping: keyMapping))
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try FormValueDecoder(value: child(key), codingPath: codingPath + [key], keyMapping: keyMapping).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try FormValueDecoder(value: child(key), codingPath: codingPath + [key], keyMapping: keyMapping).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder { FormValueDecoder(value: .members(FormMembers(members.map { ($0.key, $0.value) })), codingPath: codingPath, keyMapping: keyMapping) }
    func superDecoder(forKey key: Key) throws -> any Decoder { FormValueDecoder(value: try child(key), codingPath: codingPath + [key], keyMapping: keyMapping) }
}

struct FormUnkeyed: UnkeyedDecodingContainer {
    let items: [FormValue]
    let codingPath: [any CodingKey]
    let keyMapping: KeyMapping
    var currentIndex = 0
    var count: Int? { items.count }
    var isAtEnd: Bool { currentIndex >= items.count }

    mutating func next() throws -> FormValue {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(FormValue.self, .init(codingPath: codingPath, debugDescription: "no more form values"))
        }
        defer { currentIndex += 1 }
        return items[currentIndex]
    }

    mutating func decodeNil() throws -> Bool { false }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let index = currentIndex
        return try T(from: FormValueDecoder(value: next(), codingPath: codingPath + [FormIndexKey(index)], keyMapping: keyMapping))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        try FormValueDecoder(value: next(), codingPath: codingPath, keyMapping: keyMapping).container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try FormValueDecoder(value: next(), codingPath: codingPath, keyMapping: keyMapping).unkeyedContainer()
    }

    mutating func superDecoder() throws -> any Decoder { FormValueDecoder(value: try next(), codingPath: codingPath, keyMapping: keyMapping) }
}

struct FormSingle: SingleValueDecodingContainer {
    let value: FormValue
    let codingPath: [any CodingKey]

    var text: String? {
        switch value {
        case .text(let text): text
        case .list(let items): items.last.flatMap { if case .text(let text) = $0 { text } else { nil } }
        case .members: nil
        }
    }

    func read<T>(_ type: T.Type, _ convert: (String) -> T?) throws -> T {
        guard let text, let result = convert(text) else {
            throw DecodingError.typeMismatch(T.self, .init(codingPath: codingPath, debugDescription: "the form value \(text.map { "'\($0)'" } ?? "here") is not a \(T.self)"))
        }
        return result
    }

    func decodeNil() -> Bool { text?.isEmpty ?? true }
    func decode(_ type: Bool.Type) throws -> Bool {
        try read(Bool.self) { ["true", "1", "on", "yes"].contains($0.lowercased()) ? true : ["false", "0", "off", "no"].contains($0.lowercased()) ? false : nil }
    }
    func decode(_ type: String.Type) throws -> String { try read(String.self) { $0 } }
    func decode(_ type: Double.Type) throws -> Double { try read(Double.self) { Double($0) } }
    func decode(_ type: Float.Type) throws -> Float { try read(Float.self) { Float($0) } }
    func decode(_ type: Int.Type) throws -> Int { try read(Int.self) { Int($0) } }
    func decode(_ type: Int8.Type) throws -> Int8 { try read(Int8.self) { Int8($0) } }
    func decode(_ type: Int16.Type) throws -> Int16 { try read(Int16.self) { Int16($0) } }
    func decode(_ type: Int32.Type) throws -> Int32 { try read(Int32.self) { Int32($0) } }
    func decode(_ type: Int64.Type) throws -> Int64 { try read(Int64.self) { Int64($0) } }
    func decode(_ type: UInt.Type) throws -> UInt { try read(UInt.self) { UInt($0) } }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try read(UInt8.self) { UInt8($0) } }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try read(UInt16.self) { UInt16($0) } }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try read(UInt32.self) { UInt32($0) } }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try read(UInt64.self) { UInt64($0) } }
    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        if T.self == Date.self, let date = try read(Date.self, { try? Date($0, strategy: .iso8601) }) as? T { return date }
        if T.self == URL.self, let url = try read(URL.self, { URL(string: $0) }) as? T { return url }
        return try T(from: FormValueDecoder(value: value, codingPath: codingPath, keyMapping: .useDefaultKeys))
    }
}
