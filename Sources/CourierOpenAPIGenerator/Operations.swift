import Foundation
import OpenAPIKit

/// The `@API` protocol: one function per operation.
///
/// Parameter names follow one rule, so that the same document always gives the same code: each
/// parameter is named by its OpenAPI name in Swift's style; path parameters keep that name, and a
/// query, header or cookie parameter whose Swift name is already taken in the function gets its
/// location as a suffix (`idQuery`, `idHeader`); the body is `body`, or `requestBody` when a
/// parameter is already called `body`. Query and header keys are sent exactly as the document
/// writes them.
extension SourceWriter {
    /// The `@API` protocols: one per tag, named after it, each operation in its first tag's (the
    /// untagged in one named after the document); or one for all, by configuration. A protocol
    /// whose name a model already has gets `Endpoints` after it. A protocol without operations is
    /// not written (a document whose operations are all tagged, or that has only models).
    mutating func operations() -> String {
        var groups: [(name: String, tag: String?, functions: [String])] = [(apiName, nil, [])]
        var usedNames: Set<String> = []
        // The operations' own names, which a function the generator adds (`<name>Stream`) avoids.
        operationNames = Set(document.paths.values.compactMap { document.components[$0] }.flatMap(\.endpoints).compactMap {
            $0.operation.operationId.map { Naming.identifier($0) }
        })
        let models = Set(componentNames.values)
        for (path, item) in document.paths {
            let itemPointer = "#/paths/\(path.rawValue.pointerToken)"
            guard let pathItem = document.components[item] else {
                warn(itemPointer, "a path item that is a reference outside the document is not generated")
                continue
            }
            for endpoint in pathItem.endpoints {
                let method = endpoint.method.rawValue.uppercased()
                let pointer = "\(itemPointer)/\(method.lowercased())"
                var name = Naming.identifier(endpoint.operation.operationId ?? "\(method.lowercased()) \(path.rawValue)")
                while usedNames.contains(name) { name += "_" }
                usedNames.insert(name)
                let function = function(named: name, method: method, path: path, pathParameters: pathItem.parameters, endpoint.operation, pointer: pointer, usedNames: &usedNames)
                let tag = configuration.protocols == .tag ? endpoint.operation.tags?.first : nil
                if let index = groups.firstIndex(where: { $0.tag == tag }) {
                    groups[index].functions.append(function)
                } else {
                    var protocolName = Naming.identifier(tag ?? "", type: true)
                    while models.contains(protocolName) || groups.contains(where: { $0.name == protocolName }) || protocolName == apiName + "Coding" {
                        protocolName += "Endpoints"
                    }
                    groups.append((protocolName, tag, [function]))
                }
            }
        }
        return groups.filter { !$0.functions.isEmpty }.map { group in
            var lines: [String] = []
            let description: String
            if let tag = group.tag {
                description = document.tags?.first { $0.name == tag }?.description ?? "The operations tagged `\(tag)`."
            } else {
                description = [document.info.title, document.info.description].compactMap { $0 }.joined(separator: "\n\n")
            }
            lines.append(Self.doc(description).trimmingCharacters(in: .newlines))
            if configuration.mock { lines.append("@Mock") }
            lines.append("@API")
            lines.append("@JSON(encoder: \(apiName)Coding.encoder, decoder: \(apiName)Coding.decoder)")
            lines.append("protocol \(group.name) {")
            lines.append(group.functions.map { Self.indented($0) }.joined(separator: "\n\n"))
            lines.append("}")
            return lines.filter { !$0.isEmpty }.joined(separator: "\n")
        }.joined(separator: "\n\n")
    }

    private mutating func function(
        named name: String,
        method: String,
        path: OpenAPI.Path,
        pathParameters: OpenAPI.Parameter.Array,
        _ operation: OpenAPI.Operation,
        pointer: String,
        usedNames: inout Set<String>
    ) -> String {
        // The operation's inline types go to the models beside the components it names.
        hidden = referencedComponents(schemas(of: operation, pathParameters: pathParameters))
        defer { hidden = [] }
        var nested: [String] = []
        var arguments: [String] = []
        var taken: Set<String> = []
        var docLines: [String] = []
        var template = path.rawValue

        // The operation's parameters replace the path item's of the same name and location.
        var parameters: [(OpenAPI.Parameter, String)] = []
        for (index, either) in (pathParameters + operation.parameters).enumerated() {
            let parameterPointer = index < pathParameters.count
                ? pointer.components(separatedBy: "/").dropLast().joined(separator: "/") + "/parameters/\(index)"
                : pointer + "/parameters/\(index - pathParameters.count)"
            guard let parameter = document.components[either] else {
                warn(parameterPointer, "a parameter that is a reference outside the document is not generated")
                continue
            }
            parameters.removeAll { $0.0.name == parameter.name && $0.0.location == parameter.location }
            parameters.append((parameter, parameterPointer))
        }
        // Path parameters first, in the order of the path, so that they keep their names.
        parameters = parameters.filter { $0.0.location == .path } + parameters.filter { $0.0.location != .path }
        for (parameter, parameterPointer) in parameters {
            var swiftName = Naming.identifier(parameter.name)
            let bare = { (text: String) in text.replacingOccurrences(of: "`", with: "") }
            let type = parameterType(parameter, pointer: parameterPointer, hint: name + "_" + parameter.name, nested: &nested)
            switch parameter.location {
            case .path:
                taken.insert(bare(swiftName))
                template = template.replacingOccurrences(of: "{\(parameter.name)}", with: "{\(bare(swiftName))}")
                arguments.append("\(swiftName): \(type)")
            case .query, .header:
                let suffix = parameter.location == .query ? "Query" : "Header"
                if taken.contains(bare(swiftName)) { swiftName = Naming.identifier(bare(swiftName) + suffix) }
                taken.insert(bare(swiftName))
                let wrapped = parameter.required ? type : type + "?"
                // A header's key in backticks: @API sends it exactly as the document spells it.
                if parameter.location == .header && bare(swiftName) == parameter.name {
                    // The name alone, in backticks: a second one the same would be a warning.
                    arguments.append("\(Naming.escapedIdentifier(parameter.name)): \(suffix)<\(wrapped)>")
                } else {
                    let key = parameter.location == .header ? " " + Naming.escapedIdentifier(parameter.name)
                        : bare(swiftName) != parameter.name ? " " + Naming.rawIdentifier(parameter.name) : ""
                    arguments.append("\(swiftName)\(key): \(suffix)<\(wrapped)>")
                }
            case .cookie:
                warn(parameterPointer, "the cookie parameter `\(parameter.name)` is not a parameter of `\(name)`: set it with the provider's cookie jar")
                continue
            case .querystring:
                warn(parameterPointer, "the query string parameter `\(parameter.name)` is not generated")
                continue
            }
            if let text = parameter.description { docLines.append("/// - Parameter \(bare(swiftName)): \(Self.oneLine(text))") }
        }
        // A placeholder the document declares no parameter for is still one: a String after the
        // declared path parameters, or the path could never be filled.
        let declared = Set(parameters.filter { $0.0.location == .path }.map(\.0.name))
        var position = declared.count
        for placeholder in Self.placeholders(in: path.rawValue) where !declared.contains(placeholder) {
            let swiftName = Naming.identifier(placeholder)
            let bare = swiftName.replacingOccurrences(of: "`", with: "")
            guard !taken.contains(bare) else { continue }
            taken.insert(bare)
            template = template.replacingOccurrences(of: "{\(placeholder)}", with: "{\(bare)}")
            arguments.insert("\(swiftName): String", at: min(position, arguments.count))
            position += 1
            warn(pointer + "/parameters", "the path's `{\(placeholder)}` has no parameter: `\(bare)` is a String")
        }

        var attributes: [String] = []
        var headers: [String: String] = [:]
        if let either = operation.requestBody {
            if let body = document.components[either] {
                let bodyName = taken.contains("body") ? "requestBody" : "body"
                // A body the document does not require is optional: nil sends none.
                let optional = body.required ? "" : "?"
                let contents = resolved(body.content)
                if let (contentType, content) = contents.first(where: { Self.isJSON($0.0) }) ?? contents.first {
                    let schemaPointer = pointer + "/requestBody/content/\(contentType.rawValue.pointerToken)/schema"
                    switch contentType.rawValue.lowercased() {
                    case let type where Self.isJSON(contentType) || type.hasPrefix("application/x-www-form-urlencoded"):
                        if type.hasPrefix("application/x-www-form-urlencoded") { attributes.append("@URLForm") }
                        let swiftType = content.schema.map { self.type(of: $0, pointer: schemaPointer, hint: name + "Body", nested: &nested) } ?? jsonValueFallback(schemaPointer)
                        arguments.append("\(bodyName): Body<\(swiftType)\(optional)>")
                    case let type where type.hasPrefix("multipart/form-data"):
                        // Each property of the form's object is a part, named as the document names it.
                        attributes.append("@Multipart")
                        guard let object = content.schema.flatMap(objectContext) else {
                            warn(schemaPointer, "a multipart body that is not an object is sent as the bytes given")
                            attributes.removeLast()
                            arguments.append("\(bodyName): Body<Data>")
                            break
                        }
                        let required = Set(object.requiredProperties)
                        for (key, property) in object.properties {
                            var partName = Naming.identifier(key)
                            if taken.contains(partName.replacingOccurrences(of: "`", with: "")) { partName = Naming.identifier(key + " part") }
                            taken.insert(partName.replacingOccurrences(of: "`", with: ""))
                            let label = partName.replacingOccurrences(of: "`", with: "") != key ? " " + Naming.rawIdentifier(key) : ""
                            arguments.append("\(partName)\(label): Part\(required.contains(key) ? "" : "?")")
                            if let text = property.description { docLines.append("/// - Parameter \(partName.replacingOccurrences(of: "`", with: "")): \(Self.oneLine(text))") }
                        }
                    case let type where type.hasPrefix("text/plain"):
                        arguments.append("\(bodyName): Body<String\(optional)>")
                    case let type where type.hasPrefix("application/octet-stream"):
                        arguments.append("\(bodyName): Body<Data\(optional)>")
                    default:
                        warn(pointer + "/requestBody/content/\(contentType.rawValue.pointerToken)", "a \(contentType.rawValue) body is sent as the bytes given")
                        // Sent under its own type, unless that is a range (`image/*`) or a
                        // multipart type, whose boundary the bytes given would have to match.
                        let mediaType = contentType.rawValue.lowercased()
                        if !mediaType.contains("*") && !mediaType.hasPrefix("multipart/") { headers["Content-Type"] = contentType.rawValue }
                        arguments.append("\(bodyName): Body<Data>")
                    }
                }
            } else {
                warn(pointer + "/requestBody", "a request body that is a reference outside the document is not generated")
            }
        }

        for credential in credentials(for: operation, pointer: pointer, taken: &taken) {
            arguments.append(credential.argument)
            docLines.append(credential.doc)
        }

        let result = returnType(operation, name: name, pointer: pointer, nested: &nested)
        // A body read as bytes or text is asked for by its documented media types, so that a
        // server that checks `Accept` answers it (the protocol's coders ask for JSON).
        // The stream's function (below) sends the same headers less this `Accept`: its decoder
        // asks for the stream's media type.
        let streamHeaders = headers
        if let accept = acceptedTypes(operation, result: result) { headers["Accept"] = accept }
        var lines: [String] = []
        let summary = [operation.summary, operation.description].compactMap { $0 }.joined(separator: "\n\n")
        if !summary.isEmpty { lines.append(Self.doc(summary).trimmingCharacters(in: .newlines)) }
        lines += docLines
        if operation.deprecated { lines.append("@available(*, deprecated)") }
        lines += attributes + [Self.headersAttribute(headers)].compactMap { $0 }
        let marker = ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "HEAD", "TRACE"].contains(method)
            ? "@\(method)(\(Self.literal(template)))" : "@HTTP(\(Self.literal(template)), method: \(Self.literal(method)))"
        lines.append(marker)
        lines.append("func \(name)(\(arguments.joined(separator: ", "))) async throws\(result.map { " -> \($0)" } ?? "")")
        // A stream offered beside the JSON body is a function of its own: the same request, read
        // as it arrives (its decoder asks for the stream's media type).
        if result.map({ !$0.hasPrefix("ServerSentEvents<") && !$0.hasPrefix("JSONLines<") }) ?? false,
           let stream = alternativeStream(operation, name: name, pointer: pointer, nested: &nested) {
            var streamName = name + "Stream"
            while usedNames.contains(streamName) || operationNames.contains(streamName) { streamName += "_" }
            usedNames.insert(streamName)
            lines.append("")
            if !summary.isEmpty { lines.append(Self.doc(summary).trimmingCharacters(in: .newlines)) }
            lines.append("/// Read as a stream: `\(stream)`.")
            lines += docLines
            if operation.deprecated { lines.append("@available(*, deprecated)") }
            lines += attributes + [Self.headersAttribute(streamHeaders)].compactMap { $0 }
            lines.append(marker)
            lines.append("func \(streamName)(\(arguments.joined(separator: ", "))) async throws -> \(stream)")
        }
        if !nested.isEmpty {
            // Inline types of an operation go to the models, named after it.
            appendModels(nested)
        }
        return lines.joined(separator: "\n")
    }

    /// The media types the documented bodies are read as, when one of them is not JSON and the
    /// result is not a stream (whose decoder asks for its own type); `nil` otherwise.
    private func acceptedTypes(_ operation: OpenAPI.Operation, result: String?) -> String? {
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

    mutating func jsonValueFallback(_ pointer: String) -> String {
        var unused: [String] = []
        return type(of: .fragment(.init()), pointer: pointer, hint: "Value", nested: &unused)
    }

    private mutating func parameterType(_ parameter: OpenAPI.Parameter, pointer: String, hint: String, nested: inout [String]) -> String {
        switch parameter.schemaOrContent {
        case .a(let context):
            switch context.schema {
            case .a(let reference):
                guard let name = reference.name else { return jsonValueFallback(pointer + "/schema") }
                return componentName(name)
            case .b(let schema):
                // A parameter travels as text: one whose schema names no type is a String.
                if case .fragment = schema.value { return "String" }
                return type(of: schema, pointer: pointer + "/schema", hint: hint, nested: &nested)
            }
        case .b(let content):
            let mediaType = content.keys.first?.rawValue ?? "its media type"
            warn(pointer + "/content", "a parameter with `content` is a String: pass the value written as \(mediaType)")
            return "String"
        }
    }

    /// The schemas of `operation`'s parameters, body and responses, references to parameters,
    /// bodies and responses followed within the document.
    private func schemas(of operation: OpenAPI.Operation, pathParameters: OpenAPI.Parameter.Array) -> [JSONSchema] {
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

    /// The names between braces in a path template, in order.
    static func placeholders(in path: String) -> [String] {
        path.split(separator: "{").dropFirst().compactMap { part in part.firstIndex(of: "}").map { String(part[..<$0]) } }
    }

    /// The media types of `map`, references followed within the document.
    func resolved(_ map: OpenAPI.Content.Map) -> [(OpenAPI.ContentType, OpenAPI.Content)] {
        map.compactMap { key, value in document.components[value].map { (key, $0) } }
    }

    static func isJSON(_ type: OpenAPI.ContentType) -> Bool {
        // The media type without parameters: `application/jsonl` is not JSON, but lines of it.
        let text = type.rawValue.lowercased().split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
        return text == "application/json" || text.hasSuffix("+json")
    }
}
