// Papyrus' spellings, kept so that code written for it moves over with only the import and the
// error type changed: header names as strings in modifiers and generated code.

extension RequestBuilder {
    // Disfavored so that a value that is also `RawRepresentable` takes the raw-value form.
    /// Adds a header named by a string; `nil` adds nothing. A name that is not a valid field
    /// name, or a value containing CR, LF or NUL, is reported when the request is sent and never
    /// reaches the wire.
    @_disfavoredOverload
    public mutating func addHeader<T: CustomStringConvertible>(_ name: String, value: T?) {
        guard let value else { return }
        appendHeader(name, Self.headerText(value), replacing: false)
    }

    /// Adds a header named by a string holding an enum's raw value; `nil` adds nothing.
    public mutating func addHeader<T: RawRepresentable>(_ name: String, value: T?) where T.RawValue: CustomStringConvertible {
        guard let value else { return }
        appendHeader(name, value.rawValue.description, replacing: false)
    }

    /// Sets a header named by a string, replacing every earlier value of the same name.
    public mutating func setHeader(_ name: String, value: some CustomStringConvertible) {
        appendHeader(name, Self.headerText(value), replacing: true)
    }
}
