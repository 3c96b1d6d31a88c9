import Foundation
import OpenAPIKit

/// What an operation's function returns.
///
/// One success body and no error body: its type (`Book`, `[Book]`, `ServerSentEvents<Event>`), or
/// nothing. Several success bodies, or an error body: an `@EndpointResponse` struct named after the
/// operation (`GetBookResponse`) with the status, one optional property per documented body and the
/// error bodies typed, so that a documented failure is an answer to read rather than an error to
/// catch. Its properties are named after the status (`ok`, `created`, `notFound`); a lone success
/// body after its type (`book`, `books`), and error bodies of one type share `error`.
extension SourceWriter {
    /// A documented response and the Swift type of its body, if it has one.
    private struct Answer {
        var status: OpenAPI.Response.StatusCode
        var description: String
        var type: String?
        var streams: Bool
    }

    mutating func returnType(_ operation: OpenAPI.Operation, name: String, pointer: String, nested: inout [String]) -> String? {
        var successes: [Answer] = []
        var failures: [Answer] = []
        // Inline bodies are named after the operation (`ListBooksResponse`) when it has one
        // success body and no error body, and after the status (`GetBookOK`) when it gets a
        // response struct, which takes the first name.
        let bodies = operation.responses.filter { !Self.isBodiless($0.key) && !(document.components[$0.value]?.content.isEmpty ?? true) }
        let plain = bodies.count <= 1 && bodies.allSatisfy { Self.isSuccess($0.key) }
        for (status, either) in operation.responses {
            let responsePointer = pointer + "/responses/\(status.rawValue.pointerToken)"
            guard let response = document.components[either] else {
                warn(responsePointer, "a response that is a reference outside the document is read as raw bytes")
                successes.append(Answer(status: status, description: "", type: "Data", streams: false))
                continue
            }
            let isSuccess = Self.isSuccess(status)
            guard isSuccess || Self.isError(status) else { continue }
            let hint = name + (plain ? "Response" : Self.statusName(status, type: true))
            // 204 and 205 have no body, whatever the document says (RFC 9110 §15.3.5, §15.3.6).
            if Self.isBodiless(status), !response.content.isEmpty {
                warn(responsePointer + "/content", "a \(status.rawValue) response has no body: its content is not read")
                successes.append(Answer(status: status, description: response.description ?? "", type: nil, streams: false))
                continue
            }
            let body = bodyType(response, pointer: responsePointer, hint: hint, nested: &nested)
            let answer = Answer(status: status, description: response.description ?? "", type: body?.type, streams: body?.streams ?? false)
            if isSuccess { successes.append(answer) } else { failures.append(answer) }
        }
        let successBodies = successes.filter { $0.type != nil }
        let errorBodies = failures.filter { $0.type != nil }
        if errorBodies.isEmpty && Set(successBodies.compactMap(\.type)).count <= 1 || successBodies.contains(where: \.streams) {
            if successBodies.contains(where: \.streams) && (successBodies.count > 1 || !errorBodies.isEmpty) {
                warn(pointer + "/responses", "a stream is returned as it arrives; the operation's other bodies are not read")
            }
            return (successBodies.first { $0.streams } ?? successBodies.first)?.type
        }
        return responseStruct(named: name, successBodies, errorBodies, pointer: pointer)
    }

    /// The `@EndpointResponse` struct of an operation with several bodies, appended to the models.
    private mutating func responseStruct(named name: String, _ successes: [Answer], _ failures: [Answer], pointer: String) -> String {
        let taken = Set(componentNames.values)
        var typeName = Naming.identifier(name + "Response", type: true)
        while taken.contains(typeName) { typeName += "_" }
        var lines = [
            "/// What `\(name)` answers: one property per documented body, `nil` unless the status is its own.",
            "@EndpointResponse",
            "struct \(typeName): Sendable {",
            "    /// The response's status.",
            "    @ResponseStatusCode var status: Int",
        ]
        func property(_ answer: Answer, _ attribute: String, _ propertyName: String) {
            let description = Self.oneLine(answer.description)
            lines.append("    /// \(answer.status.rawValue)\(description.isEmpty ? "" : ": " + description)")
            lines.append("    @\(attribute) var \(propertyName): \(answer.type ?? "Data")?")
        }
        let codes = { (answers: [Answer]) in answers.compactMap { answer -> Int? in
            if case .status(code: let code) = answer.status.value { return code } else { return nil }
        } }
        if successes.count == 1 {
            property(successes[0], "ResponseBody", Self.propertyName(forType: successes[0].type ?? "body"))
        } else {
            let specific = Set(codes(successes))
            for answer in successes {
                switch answer.status.value {
                case .status(code: let code): property(answer, "ResponseBody(status: \(code))", Self.statusName(answer.status, type: false))
                case .range where specific.isEmpty: property(answer, "ResponseBody(statuses: 200..<300)", "success")
                case .range, .default:
                    warn(pointer + "/responses/\(answer.status.rawValue)", "the 2XX body is not read: the operation's own success statuses are")
                }
            }
        }
        let errorTypes = Set(failures.compactMap(\.type))
        let failureCodes = codes(failures)
        if errorTypes.count == 1, let only = failures.first {
            // One error type: one property, for the documented statuses or, with `default` or a
            // range among them, for every failing status.
            let statuses = failures.map { answer in
                let description = Self.oneLine(answer.description)
                return answer.status.rawValue + (description.isEmpty ? "" : " (\(description))")
            }.joined(separator: ", ")
            let documentedOnly = failureCodes.count == failures.count
            let attribute = !documentedOnly ? "ResponseErrorBody"
                : failureCodes.count == 1 ? "ResponseErrorBody(status: \(failureCodes[0]))"
                : "ResponseErrorBody(statuses: [\(failureCodes.sorted().map(String.init).joined(separator: ", "))])"
            let onlyDescription = Self.oneLine(only.description)
            lines.append(failures.count == 1
                ? "    /// \(only.status.rawValue)\(onlyDescription.isEmpty ? "" : ": " + onlyDescription)"
                : "    /// The error body: \(statuses).")
            lines.append("    @\(attribute) var error: \(only.type ?? "Data")?")
        } else {
            var strategy: [String] = []
            for answer in failures {
                switch answer.status.value {
                case .status(code: let code):
                    property(answer, "ResponseErrorBody(status: \(code))", Self.statusName(answer.status, type: false))
                case .range(let range):
                    let bounds = range == .clientError ? "400..<500" : "500..<600"
                    let name = range == .clientError ? "clientError" : "serverError"
                    let excluded = failureCodes.filter { range == .clientError ? (400..<500).contains($0) : (500..<600).contains($0) }.sorted()
                    if excluded.isEmpty {
                        property(answer, "ResponseErrorBody(statuses: \(bounds))", name)
                    } else {
                        // The range less the statuses listed on their own (Discord's 429 beside 4XX).
                        let strategyName = range == .clientError ? "ClientErrorStatuses" : "ServerErrorStatuses"
                        property(answer, "ResponseErrorBody(strategy: \(strategyName).self)", name)
                        strategy += [
                            "",
                            "    /// The statuses of \(answer.status.rawValue) the document does not list on their own.",
                            "    enum \(strategyName): ResponseStatusStrategy {",
                            "        static func accepts(status: Int) -> Bool { (\(bounds)).contains(status) && ![\(excluded.map(String.init).joined(separator: ", "))].contains(status) }",
                            "    }",
                        ]
                    }
                case .default:
                    // Every failing status the document does not list, by a strategy of its own.
                    let listed = failureCodes.sorted().map(String.init).joined(separator: ", ")
                    // Nor a range the document gives a body of its own.
                    let ranges = failures.compactMap { answer -> String? in
                        guard case .range(let range) = answer.status.value else { return nil }
                        return range == .clientError ? " && !(400..<500).contains(status)" : range == .serverError ? " && !(500..<600).contains(status)" : nil
                    }.joined()
                    property(answer, "ResponseErrorBody(strategy: OtherStatuses.self)", "other")
                    strategy += [
                        "",
                        "    /// The failing statuses the document does not list.",
                        "    enum OtherStatuses: ResponseStatusStrategy {",
                        "        static func accepts(status: Int) -> Bool { status >= 400 && ![\(listed)].contains(status)\(ranges) }",
                        "    }",
                    ]
                }
            }
            lines += strategy
        }
        lines.append("}")
        appendModels([lines.joined(separator: "\n")])
        return typeName
    }

    /// The body of `response` as a Swift type, and whether it streams.
    private mutating func bodyType(_ response: OpenAPI.Response, pointer: String, hint: String, nested: inout [String]) -> (type: String, streams: Bool)? {
        let contents = resolved(response.content)
        guard let (contentType, content) = contents.first(where: { Self.isJSON($0.0) }) ?? contents.first else { return nil }
        let contentPointer = pointer + "/content/\(contentType.rawValue.pointerToken)"
        let type = contentType.rawValue.lowercased()
        if Self.isJSON(contentType) {
            return (content.schema.map { self.type(of: $0, pointer: contentPointer + "/schema", hint: hint, nested: &nested) } ?? jsonValueFallback(contentPointer), false)
        }
        if let stream = streamType(contentType, content, pointer: contentPointer, hint: hint, nested: &nested) {
            return (stream, true)
        }
        if type.hasPrefix("multipart/") { warn(contentPointer, "a \(contentType.rawValue) response is returned as its bytes") }
        return (type.hasPrefix("text/") ? "String" : "Data", false)
    }

    /// `ServerSentEvents<T>` for `text/event-stream`, `JSONLines<T>` for JSON Lines; `nil` for any
    /// other media type.
    private mutating func streamType(_ contentType: OpenAPI.ContentType, _ content: OpenAPI.Content, pointer: String, hint: String, nested: inout [String]) -> String? {
        if Self.isEventStream(contentType) {
            let element = content.schema.map { self.type(of: $0, pointer: pointer + "/schema", hint: hint + "Event", nested: &nested) } ?? "String"
            return "ServerSentEvents<\(element)>"
        }
        if Self.isJSONLines(contentType) {
            let element = (content.itemSchema ?? content.schema).map { self.type(of: $0, pointer: pointer + "/schema", hint: hint + "Line", nested: &nested) } ?? jsonValueFallback(pointer)
            return "JSONLines<\(element)>"
        }
        return nil
    }

    /// The stream a success response offers beside a JSON body (OpenAI's chat completions answer
    /// JSON, or `text/event-stream` when asked to stream): its type, for a second function that
    /// returns it. `nil` when no response offers both.
    mutating func alternativeStream(_ operation: OpenAPI.Operation, name: String, pointer: String, nested: inout [String]) -> String? {
        for (status, either) in operation.responses where Self.isSuccess(status) && !Self.isBodiless(status) {
            guard let response = document.components[either] else { continue }
            let contents = resolved(response.content)
            guard contents.contains(where: { Self.isJSON($0.0) }) else { continue }
            let responsePointer = pointer + "/responses/\(status.rawValue.pointerToken)/content"
            for (contentType, content) in contents where !Self.isJSON(contentType) {
                let contentPointer = responsePointer + "/\(contentType.rawValue.pointerToken)"
                if let stream = streamType(contentType, content, pointer: contentPointer, hint: name + "Stream", nested: &nested) { return stream }
            }
        }
        return nil
    }

    /// The media types other than JSON and streams that a success response offers beside a JSON
    /// body, for functions that read the body in them, as text or bytes.
    func alternativeBodies(_ operation: OpenAPI.Operation) -> [OpenAPI.ContentType] {
        var types: [OpenAPI.ContentType] = []
        for (status, either) in operation.responses where Self.isSuccess(status) && !Self.isBodiless(status) {
            let contents = resolved(document.components[either]?.content ?? [:])
            guard contents.contains(where: { Self.isJSON($0.0) }) else { continue }
            for (contentType, _) in contents where !Self.isJSON(contentType) && !Self.isStream(contentType) && !types.contains(contentType) {
                types.append(contentType)
            }
        }
        return types
    }

    /// Server-Sent Events and JSON Lines, which a stream's function reads.
    static func isStream(_ type: OpenAPI.ContentType) -> Bool {
        isEventStream(type) || isJSONLines(type)
    }

    static func isEventStream(_ type: OpenAPI.ContentType) -> Bool { essence(type) == "text/event-stream" }

    static func isJSONLines(_ type: OpenAPI.ContentType) -> Bool {
        let text = essence(type)
        return text.hasPrefix("application/jsonl") || text == "application/x-ndjson"
    }

    static func isSuccess(_ status: OpenAPI.Response.StatusCode) -> Bool {
        switch status.value {
        case .status(code: let code): (200..<300).contains(code)
        case .range(let range): range == .success
        case .default: false
        }
    }

    /// 204 and 205, which carry no body.
    static func isBodiless(_ status: OpenAPI.Response.StatusCode) -> Bool {
        if case .status(code: let code) = status.value { return code == 204 || code == 205 }
        return false
    }

    /// 4xx, 5xx, their ranges, and `default`.
    static func isError(_ status: OpenAPI.Response.StatusCode) -> Bool {
        switch status.value {
        case .status(code: let code): code >= 400
        case .range(let range): range == .clientError || range == .serverError
        case .default: true
        }
    }

    /// `ok`, `notFound`, `status418`; `OK`, `NotFound` as part of a type's name.
    static func statusName(_ status: OpenAPI.Response.StatusCode, type: Bool) -> String {
        let name: String
        switch status.value {
        case .status(code: let code): name = reasons[code] ?? "status\(code)"
        case .range(let range): name = range == .success ? "success" : range == .clientError ? "clientError" : range == .serverError ? "serverError" : "other"
        case .default: name = "other"
        }
        return type ? name.prefix(1).uppercased() + name.dropFirst() : name
    }

    /// A lone success body's property: `book` for `Book`, `books` for `[Book]`, else `body`.
    static func propertyName(forType type: String) -> String {
        let isArray = type.hasPrefix("[") && type.hasSuffix("]") && !type.contains(":")
        let element = isArray ? String(type.dropFirst().dropLast()) : type
        guard element.allSatisfy({ $0.isLetter || $0.isNumber }), let first = element.first, first.isUppercase,
              !["Data", "String", "Int", "Double", "Bool", "Date"].contains(element)
        else { return "body" }
        let name = Naming.identifier(element) + (isArray ? "s" : "")
        // The struct's other properties keep their names.
        return ["status", "error", "other"].contains(name) ? "body" : name
    }

    private static let reasons: [Int: String] = [
        200: "ok", 201: "created", 202: "accepted", 203: "nonAuthoritative", 204: "noContent", 206: "partialContent",
        400: "badRequest", 401: "unauthorized", 402: "paymentRequired", 403: "forbidden", 404: "notFound",
        405: "methodNotAllowed", 406: "notAcceptable", 408: "requestTimeout", 409: "conflict", 410: "gone",
        412: "preconditionFailed", 413: "contentTooLarge", 415: "unsupportedMediaType", 422: "unprocessableContent",
        423: "locked", 428: "preconditionRequired", 429: "tooManyRequests", 500: "internalServerError",
        501: "notImplemented", 502: "badGateway", 503: "serviceUnavailable", 504: "gatewayTimeout",
    ]
}
