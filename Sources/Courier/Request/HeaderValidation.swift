/// The one check of a header value before it is sent, used wherever a value enters a request:
/// `RequestBuilder`'s header setters (every front-end's headers, cookies and credentials go
/// through them) and the `Accept` the decoder asks for, added as the request is built.
enum HeaderValidation {
    /// CR, LF and NUL would split or truncate the header; swift-http-types would replace them
    /// with spaces, so they are caught before a field is built.
    static func isSafe(_ value: String) -> Bool {
        // Over the contiguous bytes where the string has them (a native string always does): the
        // view's own iteration costs several times as much per byte, on every header set.
        func unsafe(_ byte: UInt8) -> Bool { byte == 0x0D || byte == 0x0A || byte == 0x00 }
        return !(value.utf8.withContiguousStorageIfAvailable { $0.contains(where: unsafe) } ?? value.utf8.contains(where: unsafe))
    }
}
