public import Foundation

/// One part of a `multipart/form-data` body: bytes or a file, with an optional file name and
/// MIME type.
///
/// A part made from a file URL is read in chunks while the request is sent, never held whole in
/// memory by Courier (a transport that buffers bodies, such as URLSession on Linux, still does).
public struct Part: Sendable {
    enum Source: Sendable {
        case data(Data)
        case file(URL)
    }

    let source: Source
    /// The file name sent in `Content-Disposition`, if any.
    var fileName: String?
    /// The part's `Content-Type`, if any.
    var mimeType: String?

    /// A part holding `data`.
    public init(data: Data, fileName: String? = nil, mimeType: String? = nil) {
        self.source = .data(data)
        self.fileName = fileName
        self.mimeType = mimeType
    }

    /// A part holding text, sent as UTF-8.
    public init(text: String, mimeType: String? = nil) {
        self.init(data: Data(text.utf8), mimeType: mimeType)
    }

    /// A part read from the file at `fileURL` as the request is sent; the file name defaults to
    /// the URL's last component.
    public init(fileURL: URL, fileName: String? = nil, mimeType: String? = nil) {
        self.source = .file(fileURL)
        self.fileName = fileName ?? fileURL.lastPathComponent
        self.mimeType = mimeType
    }
}

extension RequestBuilder {
    /// For generated code (a Papyrus-style `Part` parameter): adds a part named `name` to a
    /// `multipart/form-data` body; `nil` adds nothing. A request with parts has no other body or
    /// fields. Code of your own sets the whole form: `setBody(.multipart(MultipartForm([…])))`.
    public mutating func __addPart(_ name: String, value: Part?) {
        guard let value else { return }
        parts.append((name, value))
    }
}

/// Named parts in order: the body of a `multipart/form-data` request built as a value, as a
/// request struct's `@RequestBody` holds it.
public struct MultipartForm: Sendable {
    /// The parts with their field names, in the order they are sent.
    var parts: [(name: String, part: Part)]

    /// A form holding `parts` in order, empty unless given.
    public init(_ parts: [(name: String, part: Part)] = []) { self.parts = parts }

    /// Adds `part` under `name`.
    public mutating func append(_ name: String, _ part: Part) { parts.append((name, part)) }
}

extension RequestBuilder {
    /// Sets the body to the parts of `form`, as `multipart/form-data`: `setBody(.multipart(form))`.
    mutating func setParts(_ form: MultipartForm) {
        for entry in form.parts { __addPart(entry.name, value: entry.part) }
    }

    /// For generated code (`@RequestBody` and `Body<MultipartForm>`): the body of `form`'s parts.
    public mutating func __setBody(_ form: MultipartForm) {
        setParts(form)
    }
}
