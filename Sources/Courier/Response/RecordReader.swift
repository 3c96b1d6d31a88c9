import Foundation
import HTTPTypes
import OpenAPIRuntime

/// Reads records split by `separator` off a response and decodes each as JSON: JSON Lines
/// (records end with `\n`) and JSON text sequences (records start with `0x1E`).
///
/// Not swift-openapi-runtime's `JSONLinesDeserializationSequence` and
/// `JSONSequenceDeserializationSequence` (1.13): they keep a record's bytes without any bound, so
/// a server sending one endless line grows the client's memory until it runs out, and they move
/// the rest of their buffer forward after every record. This reader keeps at most one record,
/// fails with ``CourierError/Kind/responseTooLarge`` past the provider's ``Provider/responseBodyLimit``, and decodes with the
/// provider's ``BodyDecoder`` (its key mapping included) rather than a plain `JSONDecoder`.
struct RecordReader {
    var body: HTTPBody.AsyncIterator
    let response: StreamedResponse
    let separator: UInt8
    let leading: Bool
    var buffer: [UInt8] = []
    var start = 0
    var scanned = 0
    var finished = false

    init(response: StreamedResponse, separator: UInt8, leading: Bool) {
        self.response = response
        self.body = response.body.makeAsyncIterator()
        self.separator = separator
        self.leading = leading
    }

    mutating func next<Element: Decodable>(_ type: Element.Type) async throws(CourierError) -> Element? {
        while let record = try await nextRecord() {
            // Blank records (an empty line, a separator with nothing after it) carry no value.
            let trimmed = record.drop { Self.isSpace($0) }.reversed().drop { Self.isSpace($0) }.reversed()
            guard !trimmed.isEmpty else { continue }
            let data = Data(trimmed)
            do {
                let decoder = response.context?.bodyDecoder ?? JSONDecoder()
                return try decoder.decode(Element.self, from: data)
            } catch {
                throw CourierError(.decoding(type: "\(Element.self)", bodyPrefix: String(decoding: data.prefix(200), as: UTF8.self), error), request: response.request)
            }
        }
        return nil
    }

    private static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == 0x1E }

    /// The next record's bytes, without its separator; `nil` at the end of the body.
    private mutating func nextRecord() async throws(CourierError) -> ArraySlice<UInt8>? {
        while true {
            // Bytes before `scanned` hold no separator: each byte is looked at once, however
            // many chunks a record spans.
            if let index = buffer[max(start, scanned)...].firstIndex(of: separator) {
                guard index - start <= response.recordLimit else { throw recordTooLarge() }
                let record = buffer[start..<index]
                start = index + 1
                scanned = start
                if leading && record.isEmpty { continue }
                return record
            }
            scanned = buffer.count
            // One record may not outgrow the limit, however many records a chunk holds.
            guard buffer.count - start <= response.recordLimit else { throw recordTooLarge() }
            if finished {
                guard start < buffer.count else { return nil }
                let record = buffer[start...]
                start = buffer.count
                return record
            }
            // Drop what was read before reading more, so the buffer holds one record at most.
            if start > 0 {
                buffer.removeFirst(start)
                scanned -= start
                start = 0
            }
            let chunk: ArraySlice<UInt8>?
            do {
                chunk = try await body.next()
            } catch {
                throw PipelineErrors.classifyTransport(error).with(operationID: response.request.operationID, request: response.request)
            }
            guard let chunk else {
                finished = true
                continue
            }
            buffer.append(contentsOf: chunk)
        }
    }

    private func recordTooLarge() -> CourierError {
        CourierError(.responseTooLarge(limit: response.recordLimit), operationID: response.request.operationID, request: response.request)
    }
}
