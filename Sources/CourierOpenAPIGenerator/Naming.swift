import Foundation
/// Swift names for OpenAPI's: identifiers in Swift's style, and raw identifiers where a name is
/// a key that must be sent exactly as written.
enum Naming {
    /// `text` as a Swift identifier: words split at anything not a letter or digit and at a lower
    /// case letter followed by an upper case one, joined in camel case (the first word lower case
    /// unless `type`; text all in capitals and of several words taken as lower case words); an
    /// identifier that would start with a digit gets a leading `_`, and a keyword is written in
    /// backticks. A type name that would hide one of ``reservedTypes`` gets
    /// `reservedSuffix` after it (`ErrorModel`; `TaskEndpoints` for a protocol).
    static func identifier(_ text: String, type: Bool = false, reservedSuffix: String = "Model") -> String {
        var words = self.words(text)
        guard !words.isEmpty else { return type ? "Value" : "value" }
        // Text in capitals throughout (`CHAT_INPUT`) is words, not acronyms: `chatInput`.
        if !text.contains(where: \.isLowercase) && words.count > 1 { words = words.map { $0.lowercased() } }
        var result = ""
        for (index, word) in words.enumerated() {
            if index == 0 && !type {
                // A leading acronym ("URLPath") is lower cased whole: "urlPath".
                result += word.allSatisfy(\.isUppercase) ? word.lowercased() : word.prefix(1).lowercased() + word.dropFirst()
            } else {
                result += word.prefix(1).uppercased() + word.dropFirst()
            }
        }
        if let first = result.first, first.isNumber { result = "_" + result }
        if type && reservedTypes.contains(result) { result += reservedSuffix }
        return keywords.contains(result) ? "`\(result)`" : result
    }

    /// Types the generated code, or code beside it, names: a model called `Error` would hide
    /// `Swift.Error` from the whole module, so it is `ErrorModel`.
    static let reservedTypes: Set<String> = [
        "Any", "Array", "Bool", "Codable", "CodingKey", "Data", "Date", "Decodable", "Decoder", "Dictionary", "Double",
        "Encodable", "Encoder", "Error", "Float", "Hashable", "Int", "Int32", "Int64", "Never", "Optional", "Result",
        "Sendable", "Set", "String", "URL", "UUID", "Body", "Header", "Indirect", "JSONLines", "JSONValue", "Part",
        "Path", "Query", "Request", "Response", "ServerSentEvents", "AuthorizationHeader", "Courier", "Swift",
        "Foundation", "DecodingError", "JSONEncoder", "JSONDecoder", "API", "JSON", "Headers", "Mock", "Endpoints",
        // Courier's and Swift's names a user of the client writes beside it (`Provider(baseURL:)`,
        // `Task { … }`): Airflow's tags `Provider` and `Task` would hide them.
        "Provider", "Task", "Endpoint", "Interceptor", "Middleware", "RetryPolicy", "CourierError",
    ]

    /// `text` in backticks, always: a header key that `@API` then sends exactly as written.
    static func escapedIdentifier(_ text: String) -> String {
        "`\(text.replacingOccurrences(of: "`", with: ""))`"
    }

    /// `text` as written, in backticks when it is not already a plain identifier: the second label
    /// of a parameter whose key must be sent as the document names it.
    static func rawIdentifier(_ text: String) -> String {
        let isPlain = !text.isEmpty && text.first.map { $0.isLetter || $0 == "_" } == true
            && text.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" } && text.unicodeScalars.allSatisfy(\.isASCII)
        return isPlain && !keywords.contains(text) ? text : "`\(text.replacingOccurrences(of: "`", with: ""))`"
    }

    /// The words of `text`: split at what is not a letter or a digit, where a capital follows a
    /// small letter or a digit (`ChatCompletionRequest` → `Chat`, `Completion`, `Request`), and
    /// before the last of several capitals that a small letter follows (`URLPath` → `URL`, `Path`).
    static func words(_ text: String) -> [String] {
        var words: [String] = []
        var current = ""
        var previous: Character?
        for character in text {
            guard character.isLetter || character.isNumber, character.isASCII else {
                if !current.isEmpty { words.append(current) }
                current = ""
                previous = nil
                continue
            }
            if let previous, previous.isLowercase || previous.isNumber, character.isUppercase, !current.isEmpty {
                words.append(current)
                current = ""
            } else if let previous, previous.isUppercase, character.isLowercase, current.count > 1 {
                // The capital before a small letter starts a word: `DAGCollection` → `DAG`, `Collection`.
                words.append(String(current.dropLast()))
                current = String(current.suffix(1))
            }
            current.append(character)
            previous = character
        }
        if !current.isEmpty { words.append(current) }
        return words
    }

    /// Swift's keywords and the names that would shadow what generated code uses.
    static let keywords: Set<String> = [
        "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import", "init", "inout", "internal",
        "let", "open", "operator", "private", "precedencegroup", "protocol", "public", "rethrows", "static", "struct",
        "subscript", "typealias", "var", "break", "case", "catch", "continue", "default", "defer", "do", "else",
        "fallthrough", "for", "guard", "if", "in", "repeat", "return", "throw", "switch", "where", "while", "Any", "as",
        "await", "false", "is", "nil", "self", "Self", "super", "throws", "true", "try", "Type", "Protocol",
    ]
}
