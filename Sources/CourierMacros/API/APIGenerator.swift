/// Writes the `<Name>API` struct for a parsed protocol. Generated code names every Courier type
/// with its module, so that it compiles next to user types of the same names.
enum APIGenerator {
    static func generate(_ api: APIModel) -> String {
        let access = accessPrefix(api)
        var lines: [String] = api.documentation
        // Sendable spelled out: a public struct is not inferred Sendable outside its module.
        lines.append("\(access)struct \(api.name)API: \(api.name), Sendable {")
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
        let factories = api.endpoints
        if !factories.isEmpty {
            lines.append("")
            lines.append("    /// Each endpoint's request, built without sending it: to inspect, log, or send elsewhere.")
            lines.append("    \(access)enum Requests {")
            for (index, endpoint) in factories.enumerated() {
                if index > 0 { lines.append("") }
                lines.append(contentsOf: requestFactory(endpoint, api: api, access: access).map { "        " + $0 })
            }
            lines.append("    }")
        }
        lines.append("}")
        return lines.joined(separator: "\n")
    }

    /// What the endpoint's request produces.
    static func valueType(of endpoint: EndpointModel) -> String {
        if let completion = endpoint.completion {
            switch completion.kind {
            case .response: return "Courier.Response"
            case .result(let valueType): return valueType
            }
        }
        return endpoint.returnType ?? "Void"
    }

    private static func requestFactory(_ endpoint: EndpointModel, api: APIModel, access: String) -> [String] {
        let valueType = valueType(of: endpoint)
        let operationID = "\(api.name).\(endpoint.name)"
        // The request is made first and its builder filled in where the request keeps it: a
        // builder made apart and then handed over was copied on every call.
        let make =
            "return Courier.Request.__make(method: \(literal(endpoint.method)), path: \(literal(endpoint.path)), operationID: \(literal(operationID)), receiving: .__returning(\(valueType).self))"
        let lines = requestLines(endpoint)
        let body = lines.isEmpty ? [make] : ["\(make) { request in"] + lines.map { "    " + $0 } + ["}"]
        return [
            "/// The request of `\(endpoint.selector)`.",
            "\(access)static func \(endpoint.name)(\(endpoint.requestParameters.joined(separator: ", "))) -> Courier.Request<\(valueType)> {",
        ] + body.map { "    " + $0 } + ["}"]
    }

    /// `Requests.getPost(id: postId)`: the call of an endpoint's request factory.
    static func factoryCall(_ endpoint: EndpointModel) -> String {
        let arguments = zip(endpoint.requestLabels, endpoint.parameters.filter { $0.role != .completion }).map { label, parameter in
            label == "_" ? reference(parameter.name) : "\(label): \(reference(parameter.name))"
        }
        return "Requests.\(endpoint.name)(\(arguments.joined(separator: ", ")))"
    }

    static func accessPrefix(_ api: APIModel) -> String {
        api.accessModifier.map { $0 == "internal" ? "" : "\($0) " } ?? ""
    }

    private static func function(_ endpoint: EndpointModel, api: APIModel, access: String) -> [String] {
        var body: [String] = []
        if let completion = endpoint.completion {
            body.append("provider.__send(\(factoryCall(endpoint)), completion: \(completion.parameterName))")
        } else if endpoint.returnType != nil {
            body.append("return try await provider.send(\(factoryCall(endpoint)))")
        } else {
            body.append("try await provider.send(\(factoryCall(endpoint)))")
        }
        return endpoint.documentation + ["\(access)\(endpoint.signature) {"] + body.map { "    " + $0 } + ["}"]
    }

    /// The lines that describe an endpoint's request on an `inout` builder named `request`.
    static func requestLines(_ endpoint: EndpointModel) -> [String] {
        var body = optionLines(endpoint.options)
        for parameter in endpoint.parameters {
            let key = literal(parameter.key)
            switch parameter.role {
            case .path: body.append("request.addParameter(\(key), value: \(reference(parameter.name)))")
            case .query: body.append("request.addQuery(\(key), value: \(reference(parameter.name)))")
            case .header(let name): body.append("request.addHeader(\(literal(name)), value: \(reference(parameter.name)))")
            case .cookie(let name): body.append("request.__addCookie(\(literal(name)), value: \(reference(parameter.name)))")
            case .field: body.append("request.addField(\(key), value: \(reference(parameter.name)))")
            case .body: body.append("request.__setBody(\(reference(parameter.name)))")
            case .part: body.append("request.__addPart(\(key), value: \(reference(parameter.name)))")
            case .completion: continue
            }
        }
        return body
    }

    /// The lines that apply `options` to a builder named `request`.
    static func optionLines(_ options: [EndpointOption]) -> [String] {
        var body: [String] = []
        for option in options {
            switch option {
            case .header(let name, let value):
                body.append("request.setHeader(\(literal(name)), value: \(literal(value)))")
            case .headers(let expression):
                body.append("for (name, value) in \(expression) { request.setHeader(name, value: value) }")
            case .authorization(let expression):
                body.append("request.setAuthorization(\(expression))")
            case .json(let encoder, let decoder):
                let arguments = [encoder.map { "encoder: \($0)" }, decoder.map { "decoder: \($0)" }].compactMap { $0 }
                body.append("request.__useJSON(\(arguments.joined(separator: ", ")))")
            case .bodyEncoder(let expression):
                body.append("request.bodyEncoder = \(expression)")
            case .bodyDecoder(let expression):
                body.append("request.bodyDecoder = \(expression)")
            case .keyMapping(let expression):
                body.append("request.keyMapping = \(expression)")
            case .timeout(let bound, let expression):
                body.append("request.timeouts.\(bound) = \(expression)")
            case .retry(let expression):
                body.append("request.retryPolicy = \(expression)")
            case .cache(let expression):
                body.append("request.cachePolicy = \(expression)")
            }
        }
        return body
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
