/// Writes the `<Name>API` struct for a parsed protocol. Generated code names every Courier type
/// with its module, so that it compiles next to user types of the same names.
enum APIGenerator {
    static func generate(_ api: APIModel) -> String {
        let access = accessPrefix(api)
        var lines: [String] = api.documentation
        lines.append("\(access)struct \(api.name)API: \(api.name) {")
        lines.append("    /// Sends this API's requests.")
        lines.append("    \(access)let provider: Courier.Provider")
        lines.append("")
        lines.append("    /// A client that sends every request through `provider`.")
        lines.append("    \(access)init(provider: Courier.Provider) {")
        lines.append("        self.provider = provider")
        lines.append("    }")
        for endpoint in api.endpoints {
            lines.append("")
            lines.append(contentsOf: function(endpoint, api: api, access: access).map { "    " + $0 })
        }
        lines.append("}")
        return lines.joined(separator: "\n")
    }

    static func accessPrefix(_ api: APIModel) -> String {
        api.accessModifier.map { $0 == "internal" ? "" : "\($0) " } ?? ""
    }

    private static func function(_ endpoint: EndpointModel, api: APIModel, access: String) -> [String] {
        var body = requestLines(endpoint, api: api)
        if let completion = endpoint.completion {
            switch completion.kind {
            case .response:
                body.append("provider.send(request, completion: \(completion.parameterName))")
            case .result(let valueType):
                body.append("provider.send(Courier.Request(request, decoding: \(valueType).self), completion: \(completion.parameterName))")
            }
        } else if let returnType = endpoint.returnType {
            body.append("return try await provider.send(request, returning: \(returnType).self)")
        } else {
            body.append("try await provider.send(request, returning: Void.self)")
        }
        return endpoint.documentation + ["\(access)\(endpoint.signature) {"] + body.map { "    " + $0 } + ["}"]
    }

    /// The lines that describe an endpoint's request in a `var request`.
    static func requestLines(_ endpoint: EndpointModel, api: APIModel) -> [String] {
        var body: [String] = []
        let operationID = "\(api.name).\(endpoint.name)"
        for option in endpoint.options {
            switch option {
            case .header(let name, let value):
                body.append("request.setHeader(\(literal(name)), value: \(literal(value)))")
            case .headers(let expression):
                body.append("for (name, value) in \(expression) { request.setHeader(name, value: value) }")
            case .authorization(let expression):
                body.append("request.setAuthorization(\(expression))")
            case .json(let encoder, let decoder):
                let arguments = [encoder.map { "encoder: \($0)" }, decoder.map { "decoder: \($0)" }].compactMap { $0 }
                body.append("request.useJSON(\(arguments.joined(separator: ", ")))")
            case .bodyEncoder(let expression):
                body.append("request.bodyEncoder = \(expression)")
            case .responseDecoder(let expression):
                body.append("request.responseDecoder = \(expression)")
            case .keyMapping(let expression):
                body.append("request.keyMapping = \(expression)")
            }
        }
        for parameter in endpoint.parameters {
            let key = literal(parameter.key)
            switch parameter.role {
            case .path: body.append("request.addParameter(\(key), value: \(reference(parameter.name)))")
            case .query: body.append("request.addQuery(\(key), value: \(reference(parameter.name)))")
            case .header(let name): body.append("request.addHeader(\(literal(name)), value: \(reference(parameter.name)))")
            case .field: body.append("request.addField(\(key), value: \(reference(parameter.name)))")
            case .body: body.append("request.setBody(\(reference(parameter.name)))")
            case .part: body.append("request.addPart(\(key), value: \(reference(parameter.name)))")
            case .completion: continue
            }
        }
        let binding = body.isEmpty ? "let" : "var"
        let start =
            "\(binding) request = Courier.RequestBuilder(method: \(literal(endpoint.method)), path: \(literal(endpoint.path)), operationID: \(literal(operationID)))"
        return [start] + body
    }

    /// A parameter name as code: backticked when it is not a plain identifier.
    static func reference(_ name: String) -> String {
        let plain = name.first.map { $0 == "_" || $0.isLetter } == true
            && name.allSatisfy { $0 == "_" || $0.isLetter || $0.isNumber }
        return plain && !keywords.contains(name) ? name : "`\(name)`"
    }

    static let keywords: Set<String> = [
        "class", "struct", "enum", "protocol", "func", "var", "let", "in", "for", "while", "if", "else", "return",
        "switch", "case", "default", "where", "is", "as", "try", "throw", "throws", "import", "init", "self", "Self",
        "true", "false", "nil", "repeat", "do", "catch", "defer", "guard", "break", "continue", "static", "extension",
        "operator", "subscript", "typealias", "associatedtype", "inout", "internal", "private", "public", "fileprivate",
    ]

    /// A Swift string literal for `text`, escaped.
    static func literal(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": result += "\\\\"
            case "\"": result += "\\\""
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case "\0": result += "\\0"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}
