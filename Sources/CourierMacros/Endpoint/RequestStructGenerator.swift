/// Writes `makeRequest()` for a parsed request struct: every annotated property set on the
/// request directly, without reflection.
enum RequestStructGenerator {
    static func generate(_ model: RequestStructModel) -> String {
        var lines = APIGenerator.optionLines(model.options)
        // Method and path first, so that what depends on the method sees the value's own.
        let ordered = model.properties.filter { $0.kind == .method || $0.kind == .path }
            + model.properties.filter { $0.kind != .method && $0.kind != .path }
        for property in ordered {
            let key = APIGenerator.literal(property.key)
            let value = "self.\(APIGenerator.reference(property.name))"
            switch property.kind {
            case .pathParameter: lines.append("request.addParameter(\(key), value: \(value))")
            case .queryItem: lines.append("request.addQuery(\(key), value: \(value))")
            case .queryFlag: lines.append("if \(value) { request.addRawQuery(\(key), value: nil) }")
            case .queryItems: lines.append("request.__addQueryItems(\(value))")
            case .requestHeader: lines.append("request.addHeader(\(key), value: \(value))")
            case .requestHeaders: lines.append("request.__setHeaders(\(value))")
            case .requestCookies: lines.append("request.addCookies(\(value))")
            case .requestBody:
                lines.append(property.format.map { "request.setBody(\(value), as: \($0))" } ?? "request.__setBody(\(value))")
            case .bodyField: lines.append("request.addField(\(key), value: \(value))")
            case .param:
                lines.append("switch request.method {")
                lines.append("case .get, .head, .delete: request.addQuery(\(key), value: \(value))")
                lines.append("default: request.addField(\(key), value: \(value))")
                lines.append("}")
            case .absoluteURL: lines.append("request.absoluteURL = \(value)")
            case .method: lines.append("request.method = \(value)")
            case .path: lines.append("request.path = \(value)")
            }
        }
        let binding = lines.isEmpty ? "let" : "var"
        let start =
            "\(binding) request = Courier.RequestBuilder(method: \(model.method), path: \(APIGenerator.literal(model.path)), operationID: \(APIGenerator.literal(model.typeName)))"
        let body = ([start] + lines + ["return request"]).map { "    " + $0 }.joined(separator: "\n")
        return "/// The request this value describes.\n\(model.access)func makeRequest() -> Courier.RequestBuilder {\n\(body)\n}"
    }
}
