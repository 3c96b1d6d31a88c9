import HTTPTypes

extension RequestBuilder {
    /// Adds a header beside earlier values of the same name; `nil` adds nothing. A value
    /// containing CR, LF or NUL is reported when the request is sent and never reaches the wire.
    public mutating func addHeader<T: CustomStringConvertible>(_ name: HTTPField.Name, value: T?) {
        guard let value else { return }
        appendHeader(name, Self.headerText(value), replacing: false)
    }

    /// Sets a header, replacing every earlier value of the same name.
    public mutating func setHeader(_ name: HTTPField.Name, value: some CustomStringConvertible) {
        appendHeader(name, Self.headerText(value), replacing: true)
    }

    /// A header value's text: its `description`, except for an ``AuthorizationHeader``, whose
    /// description redacts what it sends.
    static func headerText(_ value: some CustomStringConvertible) -> String {
        (value as? AuthorizationHeader)?.value ?? String(describing: value)
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

    /// For generated code (`@RequestHeaders`): sets headers from a dictionary, in name order so
    /// that requests are the same every time, each replacing earlier values of its name; `nil`
    /// sets none. Names and values are checked as `addHeader(_:value:)` checks them.
    public mutating func __setHeaders(_ headers: [String: String]?) {
        for (name, value) in (headers ?? [:]).sorted(by: { $0.key < $1.key }) { appendHeader(name, value, replacing: true) }
    }
}
