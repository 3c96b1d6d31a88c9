/// Writes the `<Name>Mock` class: one handler per endpoint, set with `mock<Endpoint>`, kept in a
/// lock-guarded `Courier.__MockRegistry` so that the mock is `Sendable`.
enum MockGenerator {
    static func generate(_ api: APIModel) -> String {
        let access = APIGenerator.accessPrefix(api)
        let setterNames = self.setterNames(api.endpoints)
        let plainSetters = self.plainSetters(api.endpoints, setterNames: setterNames)
        var lines: [String] = api.documentation.isEmpty ? [] : api.documentation + ["///", "/// A test double: set each endpoint's answer with its `mock…` setter."]
        lines.append("\(access)final class \(api.name)Mock: \(api.name), Sendable {")
        lines.append("    private let registry = Courier.__MockRegistry.__make()")
        lines.append("")
        lines.append("    /// A mock with no answers set; every endpoint throws until you set one.")
        lines.append("    \(access)init() {}")
        for (endpoint, setter) in zip(api.endpoints, setterNames) {
            let operationID = APIGenerator.literal("\(api.name).\(endpoint.name)")
            let key = APIGenerator.literal(endpoint.key)
            let handlerType = self.handlerType(endpoint)
            let arguments = endpoint.parameters.filter { $0.role != .completion }.map { APIGenerator.reference($0.name) }.joined(separator: ", ")
            lines.append("")
            lines.append(contentsOf: endpoint.documentation.map { "    " + $0 })
            lines.append("    \(access)\(endpoint.signature) {")
            if let completion = endpoint.completion {
                lines.append("        let operationID = \(operationID)")
                lines.append("        let handler: \(handlerType)")
                lines.append("        do {")
                lines.append("            handler = try registry.__handler(\(key), as: (\(handlerType)).self, operationID: operationID)")
                lines.append("        } catch {")
                let ignored = endpoint.parameterTypes.map { _ in "_" }.joined(separator: ", ")
                lines.append("            handler = { \(ignored.isEmpty ? "" : ignored + " in ")throw error }")
                lines.append("        }")
                let call = "try await handler(\(arguments))"
                switch completion.kind {
                case .response:
                    lines.append("        registry.__complete(\(completion.parameterName), operationID: operationID) { \(call) }")
                case .result:
                    lines.append("        registry.__complete(\(completion.parameterName)) { \(call) }")
                }
            } else {
                lines.append("        let handler = try registry.__handler(\(key), as: (\(handlerType)).self, operationID: \(operationID))")
                lines.append("        \(endpoint.returnType == nil ? "" : "return ")try await handler(\(arguments))")
            }
            lines.append("    }")
            lines.append("")
            for name in [setter] + (plainSetters.contains(endpoint.key) ? [plainName(endpoint)] : []) {
                lines.append("    /// Sets what `\(endpoint.selector)` answers: the closure receives the call's arguments.")
                lines.append("    \(access)func \(name)(_ handler: @escaping \(handlerType)) {")
                lines.append("        registry.__set(\(key), handler)")
                lines.append("    }")
            }
        }
        lines.append("}")
        return lines.joined(separator: "\n")
    }

    /// `@Sendable (String, Int) async throws -> User`: the arguments without the completion
    /// handler, and what the endpoint produces.
    static func handlerType(_ endpoint: EndpointModel) -> String {
        let result: String =
            switch endpoint.completion?.kind {
            case .response: "Courier.Response"
            case .result(let valueType): valueType
            case nil: endpoint.returnType ?? "Void"
            }
        let throwsClause = endpoint.typedThrows ?? "throws"
        return "@Sendable (\(endpoint.parameterTypes.joined(separator: ", "))) async \(throwsClause) -> \(result)"
    }

    /// `mockGetUser`, the setter's name before overloads are told apart.
    static func plainName(_ endpoint: EndpointModel) -> String {
        "mock" + endpoint.name.prefix(1).uppercased() + endpoint.name.dropFirst()
    }

    /// The keys of overloaded endpoints that also get a setter under the plain name, as Papyrus
    /// spells it: those whose handler type no other overload of the name shares, so that the
    /// closure's type picks the setter.
    static func plainSetters(_ endpoints: [EndpointModel], setterNames: [String]) -> Set<String> {
        var result: Set<String> = []
        for (endpoint, setter) in zip(endpoints, setterNames) where setter != plainName(endpoint) {
            let sameName = endpoints.filter { plainName($0) == plainName(endpoint) }
            let sameType = sameName.filter { handlerType($0) == handlerType(endpoint) }
            if sameType.count == 1 { result.insert(endpoint.key) }
        }
        return result
    }

    /// `mockGetUser`; overloads get their argument labels, then their types, appended so that no
    /// two setters share a name.
    static func setterNames(_ endpoints: [EndpointModel]) -> [String] {
        func capitalized(_ text: String) -> String { text.prefix(1).uppercased() + text.dropFirst() }
        let base = endpoints.map { "mock" + capitalized($0.name) }
        var names = base
        let counts = Dictionary(base.map { ($0, 1) }, uniquingKeysWith: +)
        for index in names.indices where counts[base[index], default: 0] > 1 {
            let labels = endpoints[index].selector.split(separator: "(").dropFirst().first?
                .split(separator: ":").map(String.init).filter { $0 != ")" && $0 != "_" } ?? []
            names[index] = base[index] + labels.map(capitalized).joined()
        }
        let afterLabels = Dictionary(names.map { ($0, 1) }, uniquingKeysWith: +)
        for index in names.indices where afterLabels[names[index], default: 0] > 1 {
            let types = endpoints[index].parameterTypes.map { type in
                capitalized(String(type.unicodeScalars.filter { $0.properties.isAlphabetic || ("0"..."9").contains($0) }.map(Character.init)))
            }
            names[index] += types.joined()
        }
        var seen: [String: Int] = [:]
        for index in names.indices {
            seen[names[index], default: 0] += 1
            if let count = seen[names[index]], count > 1 { names[index] += String(count) }
        }
        return names
    }
}
