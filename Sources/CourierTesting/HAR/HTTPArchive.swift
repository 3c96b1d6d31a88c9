import Foundation

/// An HTTP Archive (HAR 1.2): the format in which browsers' developer tools, proxies such as
/// Charles, Proxyman and mitmproxy, and Courier record HTTP exchanges.
///
/// Reading needs only the fields a replay uses; everything else a tool writes (pages, cookies,
/// custom `_`-prefixed fields) is accepted and ignored. Courier writes every field the format
/// requires.
struct HTTPArchive: Codable, Sendable {
    /// The archive's one top-level object.
    var log: Log

    /// An archive of `entries`, written by Courier.
    init(entries: [Entry]) {
        log = Log(version: "1.2", creator: Creator(name: "Courier", version: "1"), entries: entries)
    }

    /// Reads the archive at `url`; a file that is not a HAR archive is an error naming the file
    /// and the first field that does not read.
    init(contentsOf url: URL) throws(HTTPArchiveError) {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw HTTPArchiveError(file: url, "cannot be read: \(error.localizedDescription)")
        }
        do {
            self = try JSONDecoder().decode(HTTPArchive.self, from: data)
        } catch {
            throw HTTPArchiveError(file: url, "is not a readable HAR 1.2 archive: \(error)")
        }
        for (index, entry) in log.entries.enumerated() {
            if let problem = entry.problem {
                throw HTTPArchiveError(file: url, "has an entry that cannot be replayed: entry \(index + 1) (\(entry.request.method) \(entry.request.url)): \(problem)")
            }
        }
    }

    /// The archive as pretty-printed JSON, its keys sorted so that a re-recording diffs cleanly.
    func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }

    /// The `log` object: the format's version, the tool that wrote it, and the exchanges.
    struct Log: Codable, Sendable {
        var version: String
        var creator: Creator
        /// The exchanges, in the order they started.
        var entries: [Entry]
    }

    /// A tool's name and version.
    struct Creator: Codable, Sendable {
        var name: String
        var version: String
    }

    /// One exchange: a request and the response it got.
    struct Entry: Codable, Sendable {
        /// When the request started, in ISO 8601.
        var startedDateTime: String
        /// The exchange's total time in milliseconds.
        var time: Double
        var request: Request
        var response: Response
        /// What a browser's cache did; Courier records none.
        var cache: Cache? = Cache()
        var timings: Timings?
    }

    /// A name and a value: a header or a query parameter.
    struct Pair: Codable, Sendable, Equatable {
        var name: String
        var value: String
    }

    /// A request as an archive records it.
    struct Request: Codable, Sendable {
        /// The method, e.g. `GET`.
        var method: String
        /// The absolute URL, with its query.
        var url: String
        var httpVersion: String?
        var cookies: [Pair]?
        /// The header fields, in order.
        var headers: [Pair]
        /// The query's items, decoded.
        var queryString: [Pair]?
        /// The body, when there is one.
        var postData: PostData?
        /// `-1`: the size of the head as sent is not known.
        var headersSize: Int?
        var bodySize: Int?
    }

    /// A request body: text, or base64 in `_encoding` for bytes that are not UTF-8 (the format
    /// has no field for it, so Courier adds one of its own, as tools may).
    struct PostData: Codable, Sendable {
        /// The body's media type.
        var mimeType: String?
        /// The body as text, or base64.
        var text: String?
        /// `base64` when `text` is base64-encoded.
        var encoding: String?

        enum CodingKeys: String, CodingKey {
            case mimeType, text
            case encoding = "_encoding"
        }
    }

    /// A response as an archive records it.
    struct Response: Codable, Sendable {
        /// The status code.
        var status: Int
        var statusText: String?
        var httpVersion: String?
        var cookies: [Pair]?
        /// The header fields, in order.
        var headers: [Pair]
        /// The body.
        var content: Content
        /// The `Location` of a redirect, else empty.
        var redirectURL: String?
        var headersSize: Int?
        var bodySize: Int?
    }

    /// A response body: text, or base64 when `encoding` says so.
    struct Content: Codable, Sendable {
        /// The body's length in bytes, as decoded.
        var size: Int?
        /// The body's media type.
        var mimeType: String?
        /// The body, as text or base64.
        var text: String?
        /// `base64` when `text` is base64-encoded.
        var encoding: String?
        /// How a streamed body arrived, chunk by chunk: Courier's own field, which other tools
        /// ignore.
        var chunks: [Chunk]?

        enum CodingKeys: String, CodingKey {
            case size, mimeType, text, encoding
            case chunks = "_chunks"
        }
    }

    /// One chunk of a streamed body: its length, and when it arrived, in milliseconds after the
    /// response's head.
    struct Chunk: Codable, Sendable, Equatable {
        var size: Int
        var time: Double
    }

    /// The `cache` object, empty: Courier records no browser cache.
    struct Cache: Codable, Sendable {}

    /// The phases of an exchange in milliseconds: sending the request, waiting for the head,
    /// receiving the body.
    struct Timings: Codable, Sendable {
        var send: Double
        var wait: Double
        var receive: Double
    }
}

/// An archive that cannot be read, written or chosen: the file and what is wrong.
public struct HTTPArchiveError: Error, CustomStringConvertible {
    /// The file's path.
    let file: String
    /// What is wrong with it, as a phrase that follows the file's name.
    let reason: String

    init(file: URL, _ reason: String) {
        self.file = file.path
        self.reason = reason
    }

    /// Names the file and what is wrong.
    public var description: String { "'\(file)' \(reason)" }
}

extension HTTPArchive {
    /// A body's bytes from what an archive holds: `text` decoded from base64 when `encoding`
    /// says so, else its UTF-8; none for no text; `nil` for base64 that does not decode.
    static func bytes(of text: String?, encoding: String?) -> Data? {
        guard let text else { return Data() }
        if encoding?.lowercased() == "base64" { return Data(base64Encoded: text, options: .ignoreUnknownCharacters) }
        return Data(text.utf8)
    }

    /// `bytes` as an archive holds a body: as text when they are UTF-8, else base64.
    static func text(of bytes: Data) -> (text: String, encoding: String?) {
        if let text = String(validating: bytes, as: UTF8.self) { return (text, nil) }
        return (bytes.base64EncodedString(), "base64")
    }
}

extension HTTPArchive.Entry {
    /// The longest a recorded chunk may wait after the head: a day, in milliseconds.
    static let longestChunkTime = 86_400_000.0

    /// What in this entry a replay could not use, as `field: what is wrong`, or `nil`. Every
    /// value a replay reads is checked here, when the archive is read, rather than when a
    /// request meets the entry.
    var problem: String? {
        let status = response.status
        if !(0...999).contains(status) {
            return "response.status is \(status), which is not a status code (0 to 999)"
        }
        if response.content.bytes == nil {
            return "response.content.text is not valid base64, as its encoding says it is"
        }
        if let postData = request.postData, postData.bytes == nil {
            return "request.postData.text is not valid base64, as its encoding says it is"
        }
        for (index, chunk) in (response.content.chunks ?? []).enumerated() {
            if chunk.size < 0 {
                return "response.content._chunks[\(index)].size is \(chunk.size), which is negative"
            }
            if !chunk.time.isFinite || chunk.time < 0 || chunk.time > Self.longestChunkTime {
                return "response.content._chunks[\(index)].time is \(chunk.time), not between 0 and \(Int(Self.longestChunkTime)) ms"
            }
        }
        return nil
    }
}

extension HTTPArchive.Content {
    /// The body's bytes: `text` decoded from base64 when `encoding` says so, else as UTF-8; `nil`
    /// for base64 that does not decode.
    ///
    /// Some tools (mitmproxy 11 among them) write a binary body as text, one character per byte,
    /// without base64: when its UTF-8 form does not have the recorded `size` and its Latin-1 form
    /// does, that is what it is.
    var bytes: Data? {
        guard let text, encoding?.lowercased() != "base64" else { return HTTPArchive.bytes(of: text, encoding: encoding) }
        let utf8 = Data(text.utf8)
        if let size, utf8.count != size, let latin1 = text.data(using: .isoLatin1), latin1.count == size { return latin1 }
        return utf8
    }

    /// `bytes` as an archive holds them: as text when they are UTF-8, else base64.
    init(_ bytes: Data, mimeType: String, chunks: [HTTPArchive.Chunk]?) {
        size = bytes.count
        self.mimeType = mimeType
        (text, encoding) = HTTPArchive.text(of: bytes)
        self.chunks = chunks
    }
}

extension HTTPArchive.PostData {
    /// The body's bytes; `nil` for base64 that does not decode.
    var bytes: Data? { HTTPArchive.bytes(of: text, encoding: encoding) }

    /// `bytes` as an archive holds them: as text when they are UTF-8, else base64.
    init(_ bytes: Data, mimeType: String) {
        self.mimeType = mimeType
        (text, encoding) = HTTPArchive.text(of: bytes)
    }
}
