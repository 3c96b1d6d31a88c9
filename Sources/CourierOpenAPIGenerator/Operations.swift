import Foundation
import OpenAPIKit

/// The `@API` protocol: one function per operation.
///
/// Parameter names follow one rule, so that the same document always gives the same code: each
/// parameter is named by its OpenAPI name in Swift's style; path parameters keep that name, and a
/// query, header or cookie parameter whose Swift name is already taken in the function gets its
/// location as a suffix (`pageSizeQuery`); the body is `body`, or `requestBody` when a parameter
/// is already called `body`. Query, header and cookie keys are sent exactly as the document writes
/// them, as the parameter's second name: one that is another parameter's name is left out.
extension SourceWriter {
    /// The `@API` protocols: one per tag, named after it, each operation in its first tag's (the
    /// untagged in one named after the document); or one for all, by configuration. A protocol
    /// whose name a model already has gets `Endpoints` after it. A protocol without operations is
    /// not written (a document whose operations are all tagged, or that has only models).
    mutating func operations() -> [(name: String, text: String)] {
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
                    var protocolName = Naming.identifier(tag ?? "", type: true, reservedSuffix: "Endpoints")
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
            return (group.name, lines.filter { !$0.isEmpty }.joined(separator: "\n"))
        }
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
        // The names parameters have inside the function: a key written as the second name is one.
        var inside: Set<String> = []
        for (parameter, parameterPointer) in parameters {
            var swiftName = Naming.identifier(parameter.name)
            let bare = { (text: String) in text.replacingOccurrences(of: "`", with: "") }
            // A key that is the name of another parameter inside the function cannot be written.
            let keyed = parameter.location != .path && (bare(swiftName) != parameter.name || taken.contains(bare(swiftName)))
            if keyed, inside.contains(parameter.name) || taken.contains(parameter.name) {
                warn(parameterPointer, "the \(parameter.location.rawValue) parameter `\(parameter.name)` is left out of `\(name)`: its name is another parameter's; add it with the provider's middleware")
                continue
            }
            inside.insert(keyed ? parameter.name : bare(swiftName))
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
                // Sent under the document's name, exactly as written.
                if taken.contains(bare(swiftName)) { swiftName = Naming.identifier(bare(swiftName) + "Cookie") }
                taken.insert(bare(swiftName))
                let wrapped = parameter.required ? type : type + "?"
                let key = bare(swiftName) != parameter.name ? " " + Naming.escapedIdentifier(parameter.name) : ""
                arguments.append("\(swiftName)\(key): CookieValue<\(wrapped)>")
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

        // One function per media type of the body: the JSON one (or else the first) under the
        // operation's name, each other after it with its kind (`createMessageMultipart`).
        var variants: [BodyVariant] = [BodyVariant(suffix: "")]
        if let either = operation.requestBody {
            if let body = document.components[either] {
                let bodyName = taken.contains("body") ? "requestBody" : "body"
                let contents = resolved(body.content)
                let primary = contents.firstIndex { Self.isJSON($0.0) } ?? 0
                let ordered = contents.indices.sorted { ($0 == primary ? -1 : $0) < ($1 == primary ? -1 : $1) }
                variants = ordered.map { index in
                    let (contentType, content) = contents[index]
                    var variantTaken = taken
                    let suffix = index == primary ? "" : Self.mediaTypeSuffix(contentType)
                    // An inline body of each is a type of its own: `CreateMessageFormBody`.
                    var variant = bodyVariant(contentType, content, name: bodyName, required: body.required, hint: name + suffix + "Body", pointer: pointer, taken: &variantTaken, nested: &nested)
                    variant.suffix = suffix
                    variant.taken = variantTaken
                    return variant
                }
                if variants.isEmpty { variants = [BodyVariant(suffix: "")] }
            } else {
                warn(pointer + "/requestBody", "a request body that is a reference outside the document is not generated")
            }
        }

        var credentialArguments: [String] = []
        var credentialDocLines: [String] = []
        var credentialTaken = variants.reduce(taken) { $0.union($1.taken) }
        for credential in credentials(for: operation, pointer: pointer, taken: &credentialTaken) {
            credentialArguments.append(credential.argument)
            credentialDocLines.append(credential.doc)
        }

        let result = returnType(operation, name: name, pointer: pointer, nested: &nested)
        let accept = acceptedTypes(operation, result: result)
        let summary = [operation.summary, operation.description].compactMap { $0 }.joined(separator: "\n\n")
        let marker = ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "HEAD", "TRACE"].contains(method)
            ? "@\(method)(\(Self.literal(template)))" : "@HTTP(\(Self.literal(template)), method: \(Self.literal(method)))"
        /// A function's declaration: its documentation, attributes and signature.
        func declaration(_ functionName: String, _ variant: BodyVariant, note: String?, headers: [String: String], returning: String?) -> [String] {
            var lines: [String] = []
            if !summary.isEmpty { lines.append(Self.doc(summary).trimmingCharacters(in: .newlines)) }
            if let note { lines.append("/// \(note)") }
            lines += docLines + variant.docLines + credentialDocLines
            if operation.deprecated { lines.append("@available(*, deprecated)") }
            lines += variant.attributes + [Self.headersAttribute(headers)].compactMap { $0 }
            lines.append(marker)
            let all = arguments + variant.arguments + credentialArguments
            lines.append("func \(functionName)(\(all.joined(separator: ", "))) async throws\(returning.map { " -> \($0)" } ?? "")")
            return lines
        }
        var lines: [String] = []
        for variant in variants {
            var functionName = name + variant.suffix
            if !variant.suffix.isEmpty {
                while usedNames.contains(functionName) || operationNames.contains(functionName) { functionName += "_" }
                usedNames.insert(functionName)
                lines.append("")
            }
            // A body read as bytes or text is asked for by its documented media types, so that a
            // server that checks `Accept` answers it (the protocol's coders ask for JSON).
            var headers = variant.headers
            if let accept { headers["Accept"] = accept }
            let note = variant.suffix.isEmpty ? nil : "The body sent as `\(variant.mediaType)`."
            lines += declaration(functionName, variant, note: note, headers: headers, returning: result)
            guard variant.suffix.isEmpty, result.map({ !$0.hasPrefix("ServerSentEvents<") && !$0.hasPrefix("JSONLines<") }) ?? false else { continue }
            // Another media type the success body comes in beside JSON: a function that asks for
            // it and returns the body as text or bytes (`getReportAsCsv`).
            for type in alternativeBodies(operation) {
                var alternativeName = name + "As" + Self.mediaTypeSuffix(type)
                while usedNames.contains(alternativeName) || operationNames.contains(alternativeName) { alternativeName += "_" }
                usedNames.insert(alternativeName)
                var alternativeHeaders = variant.headers
                alternativeHeaders["Accept"] = type.rawValue
                lines.append("")
                let returning = type.rawValue.lowercased().hasPrefix("text/") ? "String" : "Data"
                lines += declaration(alternativeName, variant, note: "The response read as `\(type.rawValue)`.", headers: alternativeHeaders, returning: returning)
            }
            // A stream offered beside the JSON body is a function of its own: the same request,
            // read as it arrives, with the same headers less `Accept` (its decoder asks for the
            // stream's media type).
            guard let stream = alternativeStream(operation, name: name, pointer: pointer, nested: &nested) else { continue }
            var streamName = name + "Stream"
            while usedNames.contains(streamName) || operationNames.contains(streamName) { streamName += "_" }
            usedNames.insert(streamName)
            lines.append("")
            lines += declaration(streamName, variant, note: "Read as a stream: `\(stream)`.", headers: variant.headers, returning: stream)
        }
        if !nested.isEmpty {
            // Inline types of an operation go to the models, named after it.
            appendModels(nested)
        }
        return lines.joined(separator: "\n")
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

    /// The names between braces in a path template, in order.
    static func placeholders(in path: String) -> [String] {
        path.split(separator: "{").dropFirst().compactMap { part in part.firstIndex(of: "}").map { String(part[..<$0]) } }
    }
}
