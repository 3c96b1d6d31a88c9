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

    /// A body read as a `String` value: a JSON string (`"it\u2019s"`) when the response says it
    /// is JSON (`application/json` or `+json`) and the body is one, its text otherwise.
    static func string(from body: Data, response: Response) throws(CourierError) -> String {
        if isJSON(response), body.first(where: { !isJSONWhitespace($0) }) == UInt8(ascii: "\""),
            let string = try? JSONDecoder().decode(String.self, from: body)
        {
            return string
        }
        return try text(from: body, response: response)
    }

    /// Whether the response's `Content-Type` is JSON: `application/json`, or a type ending in `+json`.
    static func isJSON(_ response: Response) -> Bool {
        guard let type = response.headers[.contentType]?.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased() else { return false }
        return type == "application/json" || type.hasSuffix("+json")
    }

    private static func isJSONWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
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
