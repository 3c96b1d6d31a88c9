/// Writes `makeRequest()` for a parsed request struct: every annotated property set on the
/// request directly, without reflection.
enum RequestStructGenerator {
    static func generate(_ model: RequestStructModel) -> String {
        var lines = APIGenerator.optionLines(model.options)
        for property in model.properties {
            let key = APIGenerator.literal(property.key)
            let value = "self.\(APIGenerator.reference(property.name))"
            switch property.kind {
            case .pathParameter: lines.append("request.addParameter(\(key), value: \(value))")
            case .queryItem: lines.append("request.addQuery(\(key), value: \(value))")
            case .queryFlag: lines.append("if \(value) { request.addRawQuery(\(key), value: nil) }")
            case .queryItems: lines.append("request.addQueryItems(\(value))")
            case .requestHeader: lines.append("request.addHeader(\(key), value: \(value))")
            case .requestHeaders: lines.append("request.setHeaders(\(value))")
            case .requestCookies: lines.append("request.addCookies(\(value))")
            case .requestBody:
                lines.append(property.format.map { "request.setBody(\(value), as: \($0))" } ?? "request.setBody(\(value))")
            case .bodyField, .param: lines.append("request.addField(\(key), value: \(value))")
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
