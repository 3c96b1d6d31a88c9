import Foundation
import HTTPTypes
import OpenAPIRuntime

/// The settings a request is built with: the provider's, overridden by the request's own.
struct BuildSettings: Sendable {
    var keyMapping: KeyMapping
    var bodyEncoder: any RequestBodyEncoder
    var queryArrayEncoding: ArrayEncoding
}

extension RequestBuilder {
    /// Encodes everything into the request that goes to the middleware chain.
    func build(baseURL: URL, operationID: String, settings: BuildSettings) throws(CourierError) -> RawRequest {
        if let problem = problems.first { throw CourierError(problem) }
        let keyMapping = self.keyMapping ?? settings.keyMapping
        let target = try renderTarget(keyMapping: keyMapping, arrays: queryArrayEncoding ?? settings.queryArrayEncoding)

        var fields = headers
        var bodyData: Data?
        var contentType: String?
        if body != nil, !self.fields.isEmpty { throw CourierError(.bodyAndFields) }

        var encoder: any RequestBodyEncoder {
            let base = bodyEncoder ?? settings.bodyEncoder
            return self.keyMapping.map { base.with(keyMapping: $0) } ?? base
        }
        if !self.fields.isEmpty {
            do {
                let encoder = encoder
                bodyData = try encoder.encode(FieldsBody(fields: self.fields))
                contentType = encoder.contentType
            } catch {
                let names = self.fields.map(\.key).joined(separator: ", ")
                throw CourierError(.encoding(what: "the body fields (\(names))", error))
            }
        } else if let body {
            switch body.content {
            case .encodable(let value):
                do {
                    let encoder = encoder
                    bodyData = try encoder.encode(value)
                    contentType = encoder.contentType
                } catch {
                    throw CourierError(.encoding(what: "the body of type \(type(of: value))", error))
                }
            case .data(let data, let type):
                bodyData = data
                contentType = type
            case .text(let text, let type, let encoding):
                let charset = Self.charsetName(encoding)
                guard let data = text.data(using: encoding) else {
                    throw CourierError(.textNotEncodable(charset: charset))
                }
                bodyData = data
                contentType = "\(type); charset=\(charset)"
            }
        }
        if let bodyData {
            if let contentType, fields[.contentType] == nil { fields[.contentType] = contentType }
            fields[.contentLength] = String(bodyData.count)
        } else {
            fields[.contentLength] = nil
        }
        let head = HTTPRequest(method: method, scheme: nil, authority: nil, path: target, headerFields: fields)
        return RawRequest(head: head, body: bodyData.map { HTTPBody($0) }, baseURL: baseURL, operationID: operationID)
    }

    static func charsetName(_ encoding: String.Encoding) -> String {
        switch encoding {
        case .utf8: "utf-8"
        case .ascii: "us-ascii"
        case .isoLatin1: "iso-8859-1"
        case .utf16: "utf-16"
        case .utf16BigEndian: "utf-16be"
        case .utf16LittleEndian: "utf-16le"
        case .utf32: "utf-32"
        case .windowsCP1252: "windows-1252"
        default: "\(encoding)"
        }
    }
}

/// Separate fields written as one keyed value, in the order they were added.
struct FieldsBody: Encodable {
    let fields: [(key: String, value: any Encodable & Sendable)]

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: MappedCodingKey.self)
        for field in fields {
            if let optional = field.value as? any OptionalValue, optional.isNil { continue }
            try container.encode(field.value, forKey: MappedCodingKey(field.key))
        }
    }
}

/// Lets an absent optional field be left out rather than written as `null`.
protocol OptionalValue {
    var isNil: Bool { get }
}

extension Optional: OptionalValue {
    var isNil: Bool { self == nil }
}
