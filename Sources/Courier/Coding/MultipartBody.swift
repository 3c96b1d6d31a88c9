import Foundation
import OpenAPIRuntime

/// Writes `multipart/form-data` (RFC 7578): a header block per part, then its bytes, file parts
/// read in chunks as the body is iterated.
struct MultipartBody: Sendable {
    let boundary: String
    let parts: [(name: String, part: Part)]

    static func makeBoundary() -> String {
        "courier-" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
    }

    var contentType: String { "multipart/form-data; boundary=\(boundary)" }

    /// What a part's header block holds; quotes and line breaks in names are percent-encoded, as
    /// browsers do, so that a name cannot break out of its header.
    func header(for name: String, _ part: Part, first: Bool) -> Data {
        var text = first ? "" : "\r\n"
        text += "--\(boundary)\r\n"
        text += "Content-Disposition: form-data; name=\"\(Self.escape(name))\""
        if let fileName = part.fileName { text += "; filename=\"\(Self.escape(fileName))\"" }
        text += "\r\n"
        if let mimeType = part.mimeType { text += "Content-Type: \(Self.escape(mimeType))\r\n" }
        text += "\r\n"
        return Data(text.utf8)
    }

    var closing: Data { Data((parts.isEmpty ? "" : "\r\n") .appending("--\(boundary)--\r\n").utf8) }

    static func escape(_ value: String) -> String {
        var result = ""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": result += "%22"
            case "\r": result += "%0D"
            case "\n": result += "%0A"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// The body's length, reading file sizes; a file that cannot be read is an error naming it.
    func length() throws(CourierError) -> Int64 {
        var total: Int64 = Int64(closing.count)
        for (index, entry) in parts.enumerated() {
            total += Int64(header(for: entry.name, entry.part, first: index == 0).count)
            switch entry.part.source {
            case .data(let data): total += Int64(data.count)
            case .file(let url):
                do {
                    let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
                    guard let size = attributes[.size] as? NSNumber else {
                        throw CocoaError(.fileReadUnknown)
                    }
                    total += size.int64Value
                } catch {
                    throw CourierError(.encoding(what: "the multipart part '\(entry.name)' from file '\(url.path)'", error))
                }
            }
        }
        return total
    }

    func httpBody() throws(CourierError) -> HTTPBody {
        let length = try length()
        return HTTPBody(MultipartSequence(body: self), length: .known(length), iterationBehavior: .multiple)
    }
}

/// Produces a multipart body chunk by chunk; each iteration starts over, so the body can be sent
/// again (by a retry or a redirect).
struct MultipartSequence: AsyncSequence, Sendable {
    typealias Element = ArraySlice<UInt8>
    let body: MultipartBody
    static let chunkSize = 64 * 1024

    struct AsyncIterator: AsyncIteratorProtocol {
        let body: MultipartBody
        var index = 0
        var handle: FileHandle?
        var pendingPayload = false
        var finished = false

        mutating func next() async throws -> ArraySlice<UInt8>? {
            while !finished {
                if let handle {
                    let chunk = try handle.read(upToCount: MultipartSequence.chunkSize) ?? Data()
                    if !chunk.isEmpty { return ArraySlice(chunk) }
                    try handle.close()
                    self.handle = nil
                    index += 1
                    continue
                }
                if pendingPayload {
                    pendingPayload = false
                    let part = body.parts[index].part
                    switch part.source {
                    case .data(let data):
                        index += 1
                        if !data.isEmpty { return ArraySlice(data) }
                    case .file(let url):
                        handle = try FileHandle(forReadingFrom: url)
                    }
                    continue
                }
                if index < body.parts.count {
                    pendingPayload = true
                    let entry = body.parts[index]
                    return ArraySlice(body.header(for: entry.name, entry.part, first: index == 0))
                }
                finished = true
                return ArraySlice(body.closing)
            }
            return nil
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(body: body) }
}
