import Foundation
import HTTPTypes

/// A stored file's name and contents.
extension DiskStore {
    static let suffix = ".response"
    static let temporaryPrefix = ".writing-"
    private static let magic = Array("courier-cache 2\n".utf8)

    /// FNV-1a, 64 bits, as 16 hexadecimal digits: a file name no text can steer.
    static func hash(_ text: String) -> String {
        var value: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            value ^= UInt64(byte)
            value = value &* 0x0000_0100_0000_01b3
        }
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// The two hashes of a stored file's name, when it is one.
    static func split(_ fileName: String) -> (String, String)? {
        guard fileName.hasSuffix(suffix) else { return nil }
        let parts = fileName.dropLast(suffix.count).split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ $0.count == 16 && $0.allSatisfy(\.isHexDigit) }) else { return nil }
        return (String(parts[0]), String(parts[1]))
    }

    /// What a file holds besides the body.
    private struct Header: Codable {
        var key: String
        var status: Int
        var reason: String
        var fields: [[String]]
        var vary: [String: String]
        var requestTime: Double
        var responseTime: Double
        var bodyLength: Int
    }

    enum Decoded {
        case entry(CachedResponse)
        case damaged
    }

    /// `courier-cache 2`; the header's length in bytes and a checksum of the header and body;
    /// the header as JSON; the body.
    static func encode(_ entry: CachedResponse) -> Data {
        let header = Header(
            key: entry.key,
            status: entry.head.status.code,
            reason: entry.head.status.reasonPhrase,
            fields: entry.head.headerFields.map { [$0.name.rawName, $0.value] },
            vary: entry.varyValues,
            requestTime: entry.requestTime.timeIntervalSince1970,
            responseTime: entry.responseTime.timeIntervalSince1970,
            bodyLength: entry.body.count
        )
        // Every member of `Header` has a JSON form: encoding it cannot fail.
        let json = (try? JSONEncoder().encode(header)) ?? Data()
        let checksum = checksum(json, entry.body)
        var data = Data(magic)
        data.append(contentsOf: Array("\(json.count) \(checksum)\n".utf8))
        data.append(json)
        data.append(entry.body)
        return data
    }

    /// FNV-1a, 64 bits, over `header` then `body`, as 16 hexadecimal digits: what tells a file
    /// written whole from one that is not (cut, zeroed by a crash, or changed).
    private static func checksum(_ header: Data, _ body: Data) -> String {
        var value: UInt64 = 0xcbf2_9ce4_8422_2325
        for part in [header, body] {
            part.withUnsafeBytes { bytes in
                for byte in bytes {
                    value ^= UInt64(byte)
                    value = value &* 0x0000_0100_0000_01b3
                }
            }
        }
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// The most header fields a stored response may have (HTTPTypes allows fewer than 65,536).
    private static let fieldLimit = 10_000

    static func decode(_ data: Data) -> Decoded {
        let data = data.startIndex == 0 ? data : Data(data)
        guard data.starts(with: magic), let newline = data[magic.count...].firstIndex(of: 10) else { return .damaged }
        let preamble = String(decoding: data[magic.count..<newline], as: UTF8.self).split(separator: " ")
        guard preamble.count == 2, let length = Int(preamble[0]), length > 0, length <= data.count - newline - 1 else { return .damaged }
        let json = data.subdata(in: (newline + 1)..<(newline + 1 + length))
        let body = data.subdata(in: (newline + 1 + length)..<data.count)
        guard String(preamble[1]) == checksum(json, body), let header = try? JSONDecoder().decode(Header.self, from: json),
            (100...999).contains(header.status), header.fields.count <= fieldLimit,
            // A body of any other length than the one written is not the one written.
            body.count == header.bodyLength,
            [header.requestTime, header.responseTime].allSatisfy({ $0.isFinite && abs($0) < 1e11 })
        else { return .damaged }
        var fields = HTTPFields()
        for pair in header.fields {
            guard pair.count == 2, let name = HTTPField.Name(pair[0]) else { return .damaged }
            fields.append(HTTPField(name: name, value: pair[1]))
        }
        let head = HTTPResponse(status: .init(code: header.status, reasonPhrase: header.reason), headerFields: fields)
        return .entry(
            CachedResponse(
                key: header.key,
                head: head,
                body: body,
                varyValues: header.vary,
                requestTime: Date(timeIntervalSince1970: header.requestTime),
                responseTime: Date(timeIntervalSince1970: header.responseTime)
            )
        )
    }
}
