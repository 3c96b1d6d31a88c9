import Foundation
import OpenAPIKit

/// What an operation sends: a function's body for each media type of the request body; the
/// schemas an operation names, whose components its inline types must not hide; and the media
/// types its bodies come in.
extension SourceWriter {
    /// The body of one function of an operation: its arguments, attributes and headers for one
    /// media type of the request body.
    struct BodyVariant {
        /// What the function's name takes after the operation's: empty for the first.
        var suffix: String
        var mediaType = ""
        var arguments: [String] = []
        var attributes: [String] = []
        var headers: [String: String] = [:]
        var docLines: [String] = []
        /// The Swift names the function's parameters take, the body's included.
        var taken: Set<String> = []
    }

    /// The function name's suffix for a body of `type`: `Multipart`, `Form`, `Text`, `Bytes`, or
    /// the media type's subtype (`Xml`).
    static func mediaTypeSuffix(_ type: OpenAPI.ContentType) -> String {
        let text = essence(type)
        switch text {
        case let text where text.hasPrefix("multipart/"): return "Multipart"
        case "application/x-www-form-urlencoded": return "Form"
        case "text/plain": return "Text"
        case "application/octet-stream": return "Bytes"
        default: return Naming.identifier(String(text.split(separator: "/").last ?? "body"), type: true)
        }
    }

    /// The arguments, attributes and headers that send a body of `contentType`.
    mutating func bodyVariant(
        _ contentType: OpenAPI.ContentType,
        _ content: OpenAPI.Content,
        name bodyName: String,
        required: Bool,
        hint: String,
        pointer: String,
        taken: inout Set<String>,
        nested: inout [String]
    ) -> BodyVariant {
        var variant = BodyVariant(suffix: "", mediaType: contentType.rawValue)
        // A body the document does not require is optional: nil sends none.
        let optional = required ? "" : "?"
        let schemaPointer = pointer + "/requestBody/content/\(contentType.rawValue.pointerToken)/schema"
        switch contentType.rawValue.lowercased() {
        case let type where Self.isJSON(contentType) || type.hasPrefix("application/x-www-form-urlencoded"):
            if type.hasPrefix("application/x-www-form-urlencoded") { variant.attributes.append("@URLForm") }
            let swiftType = content.schema.map { self.type(of: $0, pointer: schemaPointer, hint: hint, nested: &nested) } ?? jsonValueFallback(schemaPointer)
            variant.arguments.append("\(bodyName): Body<\(swiftType)\(optional)>")
        case let type where type.hasPrefix("multipart/form-data"):
            // Each property of the form's object is a part, named as the document names it.
            guard let object = content.schema.flatMap(objectContext) else {
                warn(schemaPointer, "a multipart body that is not an object is sent as the bytes given")
                variant.arguments.append("\(bodyName): Body<Data>")
                break
            }
            variant.attributes.append("@Multipart")
            let required = Set(object.requiredProperties)
            for (key, property) in object.properties {
                var partName = Naming.identifier(key)
                if taken.contains(partName.replacingOccurrences(of: "`", with: "")) { partName = Naming.identifier(key + " part") }
                taken.insert(partName.replacingOccurrences(of: "`", with: ""))
                let label = partName.replacingOccurrences(of: "`", with: "") != key ? " " + Naming.rawIdentifier(key) : ""
                variant.arguments.append("\(partName)\(label): Part\(required.contains(key) ? "" : "?")")
                if let text = property.description { variant.docLines.append("/// - Parameter \(partName.replacingOccurrences(of: "`", with: "")): \(Self.oneLine(text))") }
            }
        case let type where type.hasPrefix("text/plain"):
            variant.arguments.append("\(bodyName): Body<String\(optional)>")
        case let type where type.hasPrefix("application/octet-stream"):
            variant.arguments.append("\(bodyName): Body<Data\(optional)>")
        default:
            warn(pointer + "/requestBody/content/\(contentType.rawValue.pointerToken)", "a \(contentType.rawValue) body is sent as the bytes given")
            // Sent under its own type, unless that is a range (`image/*`) or a multipart type,
            // whose boundary the bytes given would have to match.
            let mediaType = contentType.rawValue.lowercased()
            if !mediaType.contains("*") && !mediaType.hasPrefix("multipart/") { variant.headers["Content-Type"] = contentType.rawValue }
            variant.arguments.append("\(bodyName): Body<Data>")
        }
        taken.insert(bodyName)
        return variant
    }

    /// The schemas of `operation`'s parameters, body and responses, references to parameters,
    /// bodies and responses followed within the document.
    func schemas(of operation: OpenAPI.Operation, pathParameters: OpenAPI.Parameter.Array) -> [JSONSchema] {
        var schemas: [JSONSchema] = []
        for either in pathParameters + operation.parameters {
            guard let parameter = document.components[either] else { continue }
            switch parameter.schemaOrContent {
            case .a(let context):
                switch context.schema {
                case .a(let reference): schemas.append(.reference(reference.jsonReference))
                case .b(let schema): schemas.append(schema)
                }
            case .b(let content):
                schemas += content.values.compactMap { document.components[$0]?.schema }
            }
        }
        if let body = operation.requestBody.flatMap({ document.components[$0] }) {
            schemas += resolved(body.content).compactMap(\.1.schema)
        }
        for either in operation.responses.values {
            schemas += resolved(document.components[either]?.content ?? [:]).compactMap(\.1.schema)
        }
        return schemas
    }

    /// The media types the documented bodies are read as, when one of them is not JSON and the
    /// result is not a stream (whose decoder asks for its own type); `nil` otherwise.
    func acceptedTypes(_ operation: OpenAPI.Operation, result: String?) -> String? {
        guard let result, !result.hasPrefix("ServerSentEvents<"), !result.hasPrefix("JSONLines<") else { return nil }
        var types: [OpenAPI.ContentType] = []
        for (status, either) in operation.responses where (Self.isSuccess(status) || Self.isError(status)) && !Self.isBodiless(status) {
            // The media type each body is read as: its JSON one, or else its first.
            let contents = resolved(document.components[either]?.content ?? [:])
            if let (type, _) = contents.first(where: { Self.isJSON($0.0) }) ?? contents.first, !types.contains(type) {
                types.append(type)
            }
        }
        guard types.contains(where: { !Self.isJSON($0) }) else { return nil }
        return types.map(\.rawValue).joined(separator: ", ")
    }

    /// `@Headers([…])` for `headers`, keys in order; `nil` when there are none.
    static func headersAttribute(_ headers: [String: String]) -> String? {
        guard !headers.isEmpty else { return nil }
        let pairs = headers.sorted { $0.key < $1.key }.map { "\(Self.literal($0.key)): \(Self.literal($0.value))" }
        return "@Headers([\(pairs.joined(separator: ", "))])"
    }

    /// The media types of `map`, references followed within the document.
    func resolved(_ map: OpenAPI.Content.Map) -> [(OpenAPI.ContentType, OpenAPI.Content)] {
        map.compactMap { key, value in document.components[value].map { (key, $0) } }
    }

    /// The media type without its parameters, in lower case: `application/json` for
    /// `application/json; charset=utf-8`.
    static func essence(_ type: OpenAPI.ContentType) -> String {
        type.rawValue.lowercased().split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
    }

    static func isJSON(_ type: OpenAPI.ContentType) -> Bool {
        // `application/jsonl` is not JSON, but lines of it.
        let text = essence(type)
        return text == "application/json" || text.hasSuffix("+json")
    }
}
