import Foundation

extension RequestBuilder {
    /// Adds a query item. Any `Encodable` works: strings, numbers, `Bool`, dates (ISO 8601),
    /// enums with raw values, arrays (repeated key unless ``queryArrayEncoding`` says otherwise)
    /// and nested values (`filter[status]=open`). An optional that is `nil` adds nothing. Keys
    /// follow the key mapping.
    public mutating func addQuery(_ key: String, value: some Encodable & Sendable) {
        // Text, integers, bools and text raw values (optional or not) are kept as text: the form
        // encoder would make three objects for each, and they are most query items.
        let text: String? =
            switch value {
            case let text as String: text
            case let number as Int: String(number)
            case let flag as Bool: flag ? "true" : "false"
            case let raw as any RawRepresentable: raw.rawValue as? String
            default: nil
            }
        appendQueryEntry(QueryEntry(key: key, value: text.map { .string($0) } ?? .encodable(value), mapsKey: true))
    }

    /// Adds a query item holding the raw value of an enum that is not `Encodable`; `nil` adds
    /// nothing. (A `Codable` enum goes through the `Encodable` form, which sends its raw value
    /// too.)
    @_disfavoredOverload
    public mutating func addQuery<T: RawRepresentable & Sendable>(_ key: String, value: T?)
    where T.RawValue: Encodable & Sendable {
        addQuery(key, value: value?.rawValue)
    }

    /// Adds query items holding the raw values of enums that are not `Encodable`.
    @_disfavoredOverload
    public mutating func addQuery<T: RawRepresentable & Sendable>(_ key: String, value: [T])
    where T.RawValue: Encodable & Sendable {
        addQuery(key, value: value.map(\.rawValue))
    }

    /// For generated code (`@QueryFlag`, `@QueryItems`): adds a query item exactly as given: the
    /// key is not mapped, `nil` is sent as a bare key (`?flag`). Code of your own uses the fluent
    /// `query(["flag": nil])`.
    public mutating func __addRawQuery(_ key: String, value: String?) {
        appendQueryEntry(QueryEntry(key: key, value: .string(value), mapsKey: false))
    }
}

extension RequestBuilder {
    /// Appends `entry`, making room for a few at the first, so that an endpoint's handful of
    /// query items allocates once rather than once per doubling.
    mutating func appendQueryEntry(_ entry: QueryEntry) {
        if queryItems.isEmpty { queryItems.reserveCapacity(4) }
        queryItems.append(entry)
    }

    /// For generated code (`@QueryItems`): adds query items from a dictionary, in key order, keys
    /// and values as given; `nil` adds none.
    public mutating func __addQueryItems(_ items: [String: String]?) {
        for (key, value) in (items ?? [:]).sorted(by: { $0.key < $1.key }) { __addRawQuery(key, value: value) }
    }
}
