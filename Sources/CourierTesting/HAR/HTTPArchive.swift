import Foundation

/// An HTTP Archive (HAR 1.2): the format in which browsers' developer tools, proxies such as
/// Charles, Proxyman and mitmproxy, and Courier record HTTP exchanges.
///
/// Only the fields a replay needs are required; everything else a tool writes (pages, cookies,
/// custom `_`-prefixed fields) is accepted and ignored.
struct HTTPArchive: Codable, Sendable {
    /// The archive's one top-level object.
    var log: Log

    /// An archive of `entries`, written by `creator`.
    init(entries: [Entry], creator: Creator = Creator(name: "Courier", version: "1")) {
        log = Log(version: "1.2", creator: creator, entries: entries)
    }

    /// Reads the archive at `url`; a file that is not a HAR archive is an error naming the file
    /// and the first field that does not read.
    init(contentsOf url: URL) throws {
        let data = try Data(contentsOf: url)
        do {
            self = try JSONDecoder().decode(HTTPArchive.self, from: data)
        } catch {
            throw HTTPArchiveError(file: url.path, reason: "\(error)")
        }
    }

    /// The `log` object: the format's version, the tool that wrote it, and the exchanges.
    struct Log: Codable, Sendable {
        /// The format's version, `1.2`.
        var version: String
        /// The tool that wrote the archive.
        var creator: Creator
        /// The exchanges, in the order they started.
        var entries: [Entry]
    }

    /// A tool's name and version.
    struct Creator: Codable, Sendable {
        /// The tool's name.
        var name: String
        /// The tool's version.
        var version: String

        /// A creator named `name` at `version`.
        init(name: String, version: String) {
            self.name = name
            self.version = version
        }
    }

    /// One exchange: a request and the response it got.
    struct Entry: Codable, Sendable {
        /// When the request started, in ISO 8601.
        var startedDateTime: String
        /// The exchange's total time in milliseconds.
        var time: Double
        /// The request as sent.
        var request: Request
        /// The response as received.
        var response: Response
    }

    /// A name and a value: a header or a query parameter.
    struct Pair: Codable, Sendable, Equatable {
        /// The name.
        var name: String
        /// The value.
        var value: String
    }

    /// A request as an archive records it.
    struct Request: Codable, Sendable {
        /// The method, e.g. `GET`.
        var method: String
        /// The absolute URL, with its query.
        var url: String
        /// The header fields, in order.
        var headers: [Pair]
        /// The body, when there is one.
        var postData: PostData?
    }

    /// A request body.
    struct PostData: Codable, Sendable {
        /// The body's media type.
        var mimeType: String?
        /// The body as text.
        var text: String?
    }

    /// A response as an archive records it.
    struct Response: Codable, Sendable {
        /// The status code.
        var status: Int
        /// The header fields, in order.
        var headers: [Pair]
        /// The body.
        var content: Content
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
    }
}

/// An archive that cannot be read: the file and what does not read in it.
public struct HTTPArchiveError: Error, CustomStringConvertible {
    /// The file's path.
    let file: String
    /// What does not read.
    let reason: String

    /// Names the file and the reason.
    public var description: String { "'\(file)' is not a readable HAR 1.2 archive: \(reason)" }
}

extension HTTPArchive.Content {
    /// The body's bytes: `text` decoded from base64 when `encoding` says so, else as UTF-8; `nil`
    /// for base64 that does not decode.
    ///
    /// Some tools (mitmproxy 11 among them) write a binary body as text, one character per byte,
    /// without base64: when its UTF-8 form does not have the recorded `size` and its Latin-1 form
    /// does, that is what it is.
    var bytes: Data? {
        guard let text else { return Data() }
        if encoding?.lowercased() == "base64" { return Data(base64Encoded: text, options: .ignoreUnknownCharacters) }
        let utf8 = Data(text.utf8)
        if let size, utf8.count != size, let latin1 = text.data(using: .isoLatin1), latin1.count == size { return latin1 }
        return utf8
    }
}
