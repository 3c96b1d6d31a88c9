import HTTPTypes

extension RequestBuilder {
    /// Adds a header. A value containing CR, LF or NUL is reported when the request is sent and
    /// never reaches the wire.
    public mutating func addHeader(_ name: HTTPField.Name, value: some CustomStringConvertible) {
        appendHeader(name, String(describing: value), replacing: false)
    }

    /// Adds a header from an optional; `nil` adds nothing.
    public mutating func addHeader<T: CustomStringConvertible>(_ name: HTTPField.Name, value: T?) {
        guard let value else { return }
        appendHeader(name, String(describing: value), replacing: false)
    }

    /// Sets a header, replacing every earlier value of the same name.
    public mutating func setHeader(_ name: HTTPField.Name, value: some CustomStringConvertible) {
        appendHeader(name, String(describing: value), replacing: true)
    }

    mutating func appendHeader(_ name: HTTPField.Name, _ value: String, replacing: Bool) {
        guard HeaderValidation.isSafe(value) else {
            problems.append(.invalidHeaderValue(name: name.rawName, value: value))
            return
        }
        if replacing { headers[values: name] = [] }
        headers.append(HTTPField(name: name, value: value))
    }

    /// Adds a header given by name; a name that is not a valid field name is reported when the
    /// request is sent.
    mutating func appendHeader(_ name: String, _ value: String, replacing: Bool) {
        guard let fieldName = HTTPField.Name(name) else {
            problems.append(.invalidHeaderName(name))
            return
        }
        appendHeader(fieldName, value, replacing: replacing)
    }

    /// Sets the `Authorization` header, replacing an earlier one.
    public mutating func setAuthorization(_ authorization: AuthorizationHeader) {
        appendHeader("Authorization", authorization.value, replacing: true)
    }

    /// Adds headers from a dictionary literal, as `@Headers` does; each replaces an earlier header
    /// of the same name. Names and values are checked as for ``addHeader(_:value:)-(String,CustomStringConvertible)``.
    public mutating func setHeaders(_ headers: KeyValuePairs<String, String>) {
        for (name, value) in headers { appendHeader(name, value, replacing: true) }
    }

    /// Sets headers from a dictionary, in name order so that requests are the same every time;
    /// `nil` sets none.
    public mutating func setHeaders(_ headers: [String: String]?) {
        for (name, value) in (headers ?? [:]).sorted(by: { $0.key < $1.key }) { appendHeader(name, value, replacing: true) }
    }
}

enum HeaderValidation {
    /// CR, LF and NUL would split or truncate the header; swift-http-types would replace them
    /// with spaces, so they are caught before a field is built.
    static func isSafe(_ value: String) -> Bool {
        !value.utf8.contains { $0 == 0x0D || $0 == 0x0A || $0 == 0x00 }
    }
}
