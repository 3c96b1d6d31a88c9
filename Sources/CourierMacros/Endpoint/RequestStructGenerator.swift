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
            // Each line that reads the property stands at the property's declaration, so that a
            // type it cannot take is reported there and not inside the expansion.
            let at = property.sourceLocation.map { [$0] } ?? []
            switch property.kind {
            case .pathParameter: lines += at + ["request.addParameter(\(key), value: \(value))"]
            case .queryItem: lines += at + ["request.addQuery(\(key), value: \(value))"]
            case .queryFlag: lines += at + ["if \(value)\(property.isOptional ? " == true" : "") { request.__addRawQuery(\(key), value: nil) }"]
            case .queryItems: lines += at + ["request.__addQueryItems(\(value))"]
            case .requestHeader: lines += at + ["request.addHeader(\(key), value: \(value))"]
            case .requestHeaders: lines += at + ["request.__setHeaders(\(value))"]
            case .requestCookies: lines += at + ["request.__addCookies(\(value))"]
            case .requestBody:
                lines += at + [property.format.map { "request.setBody(\(value), as: \($0))" } ?? "request.__setBody(\(value))"]
            case .bodyField: lines += at + ["request.addField(\(key), value: \(value))"]
            case .param:
                lines.append("switch request.method {")
                lines += ["case .get, .head, .delete:"] + at + ["request.addQuery(\(key), value: \(value))"]
                lines += ["default:"] + at + ["request.addField(\(key), value: \(value))"]
                lines.append("}")
            case .absoluteURL: lines += at + ["request.absoluteURL = \(value)"]
            case .method: lines += at + ["request.method = \(value)"]
            case .path: lines += at + ["request.path = \(value)"]
            }
        }
        if model.properties.contains(where: { $0.sourceLocation != nil }) { lines.append("#sourceLocation()") }
        let binding = lines.isEmpty ? "let" : "var"
        // A method given by name (a string) goes through the entry point for generated code; an
        // `HTTPRequest.Method` through the initializer users call.
        let make = model.methodIsName ? "Courier.RequestBuilder.__make" : "Courier.RequestBuilder"
        let start =
            "\(binding) request = \(make)(method: \(model.method), path: \(APIGenerator.literal(model.path)), operationID: \(APIGenerator.literal(model.typeName)))"
        let body = ([start] + lines + ["return request"]).map { "    " + $0 }.joined(separator: "\n")
        return "/// The request this value describes.\n\(model.access)func makeRequest() -> Courier.RequestBuilder {\n\(body)\n}"
    }
}
