/// Writes the `<Name>API` struct for a parsed protocol. Generated code names every Courier type
/// with its module, so that it compiles next to user types of the same names.
enum APIGenerator {
    static func generate(_ api: APIModel) -> String {
        let access = api.accessModifier.map { $0 == "internal" ? "" : "\($0) " } ?? ""
        var lines: [String] = []
        lines.append("\(access)struct \(api.name)API: \(api.name) {")
        lines.append("    \(access)let provider: Courier.Provider")
        lines.append("")
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

    private static func function(_ endpoint: EndpointModel, api: APIModel, access: String) -> [String] {
        var body: [String] = []
        let operationID = "\(api.name).\(endpoint.name)"
        let binding = endpoint.parameters.isEmpty && endpoint.bodyEncoder == nil ? "let" : "var"
        body.append(
            "\(binding) request = Courier.RequestBuilder(method: \(literal(endpoint.method)), path: \(literal(endpoint.path)), operationID: \(literal(operationID)))"
        )
        if let encoder = endpoint.bodyEncoder {
            body.append("request.bodyEncoder = \(encoder)")
        }
        for parameter in endpoint.parameters {
            let key = literal(parameter.key)
            switch parameter.role {
            case .path: body.append("request.addParameter(\(key), value: \(parameter.name))")
            case .query: body.append("request.addQuery(\(key), value: \(parameter.name))")
            case .header(let name): body.append("request.addHeader(\(literal(name)), value: \(parameter.name))")
            case .field: body.append("request.addField(\(key), value: \(parameter.name))")
            case .body: body.append("request.setBody(\(parameter.name))")
            }
        }
        if let returnType = endpoint.returnType {
            body.append("return try await provider.send(request, returning: \(returnType).self)")
        } else {
            body.append("try await provider.send(request, returning: Void.self)")
        }
        return ["\(access)\(endpoint.signature) {"] + body.map { "    " + $0 } + ["}"]
    }

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
