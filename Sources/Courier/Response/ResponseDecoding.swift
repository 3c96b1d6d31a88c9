import Foundation

/// Types that an empty response body decodes into: `nil` for any optional.
protocol EmptyBodyDecodable {
    static var emptyBodyValue: Self { get }
}

extension Optional: EmptyBodyDecodable {
    static var emptyBodyValue: Self { nil }
}

enum ResponseDecoding {
    static func decode<T: Decodable>(
        _ type: T.Type,
        from body: Data,
        using decoder: any BodyDecoder,
        response: Response
    ) throws(CourierError) -> T {
        do {
            return try decoder.decode(T.self, from: body)
        } catch {
            throw CourierError(.decoding(type: "\(T.self)", bodyPrefix: prefix(of: body), error), response: response)
        }
    }

    static func text(from body: Data, response: Response) throws(CourierError) -> String {
        let charset = response.headers[.contentType].flatMap(charsetParameter) ?? "utf-8"
        let encoding: String.Encoding =
            switch charset {
            case "utf-8", "utf8": .utf8
            case "iso-8859-1", "latin1": .isoLatin1
            case "us-ascii", "ascii": .ascii
            case "utf-16": .utf16
            case "utf-16be": .utf16BigEndian
            case "utf-16le": .utf16LittleEndian
            case "windows-1252": .windowsCP1252
            default: .utf8
            }
        guard let text = String(data: body, encoding: encoding) else {
            let error = DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "the bytes are not valid \(charset)"))
            throw CourierError(.decoding(type: "String", bodyPrefix: prefix(of: body), error), response: response)
        }
        return text
    }

    static func charsetParameter(_ contentType: String) -> String? {
        for parameter in contentType.split(separator: ";").dropFirst() {
            let parts = parameter.split(separator: "=", maxSplits: 1)
            guard parts.count == 2, parts[0].trimmingWhitespace().lowercased() == "charset" else { continue }
            return parts[1].trimmingWhitespace().trimmingCharacters(in: CharacterSet(charactersIn: "\"")).lowercased()
        }
        return nil
    }

    /// The first bytes of a body as text, for error messages.
    static func prefix(of body: Data, limit: Int = 200) -> String {
        let text = String(decoding: body.prefix(limit), as: UTF8.self)
        return body.count > limit ? text + "…" : text
    }
}
