import CourierWire
import Foundation
import HTTPTypes
import OpenAPIRuntime

/// The settings a request is built with: the provider's, overridden by the request's own.
struct BuildSettings: Sendable {
    var keyMapping: KeyMapping
    /// The provider's encoder as given.
    var bodyEncoder: any BodyEncoder
    /// The provider's encoder with its key mapping applied, made once per provider.
    var mappedBodyEncoder: any BodyEncoder
    var queryArrayEncoding: ArrayEncoding
}

extension RequestBuilder {
    /// Encodes everything into the request that goes to the middleware chain.
    /// `accept`, when given, is added as the builder's last field would have been, checked as
    /// `appendHeader` checks it.
    func build(baseURL: URL, operationID: String, settings: BuildSettings, accept: String? = nil) throws(CourierError) -> RawRequest {
        if let problem = problems.first { throw CourierError(problem) }
        var fields = headers
        if let accept {
            if accept == "application/json" {
                // JSON's, the most common, is made and checked once; a request with no fields of
                // its own shares it as a whole list, copied only if a body's fields join it.
                if fields.isEmpty { fields = Self.jsonAcceptAlone } else { fields.append(Self.jsonAccept) }
            } else {
                guard HeaderValidation.isSafe(accept) else { throw CourierError(.invalidHeaderValue(name: "Accept", value: accept)) }
                fields.append(HTTPField(name: .accept, value: accept))
            }
        }
        let keyMapping = self.keyMapping ?? settings.keyMapping
        let target = try renderTarget(keyMapping: keyMapping, arrays: queryArrayEncoding ?? settings.queryArrayEncoding)

        let encoded = try encodeBody(settings: settings)
        if let encoded {
            // Room for both at once: the list may be the shared `Accept` alone, copied here once
            // rather than grown field by field.
            fields.reserveCapacity(fields.count + 2)
            // Appended where the request has no such field of its own: the subscript's setter
            // would search for one again and check the value a second time.
            if let contentType = encoded.contentType, !fields.contains(.contentType) {
                fields.append(contentType == "application/json" ? Self.jsonContentType : HTTPField(name: .contentType, value: contentType))
            }
        }
        // A `Content-Length` of the request's own (only its own headers can hold one) is replaced
        // by the body's, or removed when there is no body of known length.
        let length = encoded?.length.map { String($0) }
        if !headers.isEmpty, fields.contains(.contentLength) {
            fields[.contentLength] = length
        } else if let length {
            fields.append(HTTPField(name: .contentLength, value: length))
        }
        return RawRequest(
            head: HTTPRequest(method: method, scheme: nil, authority: nil, path: target, headerFields: fields),
            payload: encoded?.body,
            baseURL: baseURL,
            operationID: operationID
        )
    }

    /// `Accept: application/json`, what the JSON response decoders ask for.
    static let jsonAccept = HTTPField(name: .accept, value: "application/json")
    /// `Content-Type: application/json`, the type of the JSON body encoders' bodies.
    static let jsonContentType = HTTPField(name: .contentType, value: "application/json")
    /// ``jsonAccept`` alone.
    static let jsonAcceptAlone: HTTPFields = [.accept: "application/json"]

    struct EncodedBody {
        var body: RequestPayload
        var contentType: String?
        /// `nil` for a stream of unknown length, sent chunked.
        var length: Int64?
    }

    /// The body in its wire form, or `nil` when the request has none.
    func encodeBody(settings: BuildSettings) throws(CourierError) -> EncodedBody? {
        let kinds = (body != nil ? 1 : 0) + (fields.isEmpty ? 0 : 1) + (parts.isEmpty ? 0 : 1)
        if kinds > 1 { throw CourierError(.bodyAndFields) }
        if kinds == 0 { return nil }
        func buffered(_ data: Data, _ contentType: String?) -> EncodedBody {
            EncodedBody(body: .bytes(data), contentType: contentType, length: Int64(data.count))
        }
        if !parts.isEmpty {
            let multipart = MultipartBody(boundary: MultipartBody.makeBoundary(), parts: parts)
            let body = try multipart.httpBody()
            return EncodedBody(body: .stream(body), contentType: multipart.contentType, length: body.knownLength)
        }
        let encoder: any BodyEncoder
        if bodyEncoder == nil && keyMapping == nil {
            encoder = settings.mappedBodyEncoder
        } else {
            let mapping = keyMapping ?? settings.keyMapping
            let base = bodyEncoder ?? settings.bodyEncoder
            encoder = mapping.isDefault ? base : base.with(keyMapping: mapping)
        }
        if !fields.isEmpty {
            do {
                return buffered(try encoder.encode(FieldsBody(fields: fields)), encoder.contentType)
            } catch {
                let names = fields.map(\.key).joined(separator: ", ")
                throw CourierError(.encoding(what: "the body fields (\(names))", error))
            }
        }
        guard let body else { return nil }
        switch body.content {
        case .encodable(let value):
            do {
                return buffered(try encoder.encode(value), encoder.contentType)
            } catch {
                throw CourierError(.encoding(what: "the body of type \(type(of: value))", error))
            }
        case .data(let data, let type):
            return buffered(data, type)
        case .text(let text, let type, let encoding):
            let charset = Self.charsetName(encoding)
            guard let data = text.data(using: encoding) else {
                throw CourierError(.textNotEncodable(charset: charset))
            }
            return buffered(data, "\(type); charset=\(charset)")
        case .stream(let stream, let type):
            return EncodedBody(body: .stream(stream), contentType: type, length: stream.knownLength)
        case .file(let url, let type):
            let stream = try HTTPBody.file(url)
            return EncodedBody(body: .stream(stream), contentType: type, length: stream.knownLength)
        }
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
            let key = MappedCodingKey(field.key)
            // The common scalars by their own overloads: the generic one costs the encoder a
            // round of dynamic casts and a boxed value per field (most of building a request).
            switch field.value {
            case let value as String: try container.encode(value, forKey: key)
            case let value as Int: try container.encode(value, forKey: key)
            case let value as Bool: try container.encode(value, forKey: key)
            case let value as Double: try container.encode(value, forKey: key)
            default:
                if let optional = field.value as? any OptionalValue, optional.isNil { continue }
                try container.encode(field.value, forKey: key)
            }
        }
    }
}

/// Lets an absent optional field be left out rather than written as `null`, and an optional body
/// be sent as its value.
protocol OptionalValue {
    var isNil: Bool { get }
    /// The value, when it is there and can be a body.
    var wrappedBody: (any Encodable & Sendable)? { get }
}

extension Optional: OptionalValue {
    var isNil: Bool { self == nil }
    var wrappedBody: (any Encodable & Sendable)? {
        switch self {
        case .some(let value as any Encodable & Sendable): value
        default: nil
        }
    }
}

extension HTTPBody {
    var knownLength: Int64? {
        if case .known(let length) = length { return length }
        return nil
    }
}
