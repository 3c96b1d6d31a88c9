import SwiftDiagnostics

/// Every problem the macros report, each with a message that says what is wrong, why, and how to
/// fix it. The README lists them as the diagnostic catalogue.
enum CourierDiagnostic: String, DiagnosticMessage {
    case apiOnNonProtocol
    case mockOnNonProtocol
    case requirementNotFunction
    case missingMethodAttribute
    case duplicateMethodAttribute
    case notAsyncThrows
    case pathNotStringLiteral
    case pathWithoutLeadingSlash
    case placeholderWithoutParameter
    case pathParameterWithoutPlaceholder
    case multipleBodies
    case bodyAndFields
    case formAndMultipart
    case nonPartInMultipart
    case malformedCompletionHandler
    case unsupportedReturnType
    case invalidHeaderName
    case invalidHeaderValue
    case endpointOnNonStruct
    case pathPropertyWithoutPlaceholder
    case unannotatedRequestProperty
    case responseOnNonStruct
    case unannotatedResponseProperty

    var message: String {
        switch self {
        case .apiOnNonProtocol:
            "@API can only be attached to a protocol; declare the endpoints as requirements of a protocol"
        case .mockOnNonProtocol:
            "@Mock can only be attached to a protocol; declare the endpoints as requirements of a protocol"
        case .requirementNotFunction:
            "only functions can be endpoints of an @API protocol; remove this requirement or move it to another protocol"
        case .missingMethodAttribute:
            "an endpoint needs a method attribute such as @GET(\"/path\") to say how it is sent"
        case .duplicateMethodAttribute:
            "an endpoint can have only one method attribute; remove all but one"
        case .notAsyncThrows:
            "an endpoint must be 'async throws' (or take a completion handler) because sending a request suspends and can fail"
        case .pathNotStringLiteral:
            "the path must be a string literal without interpolation, so that it can be checked at compile time"
        case .pathWithoutLeadingSlash:
            "the path should start with '/'; it is appended to the provider's base URL"
        case .placeholderWithoutParameter:
            "the path has a placeholder that no parameter fills; add a parameter of that name or remove the placeholder"
        case .pathParameterWithoutPlaceholder:
            "this Path parameter has no placeholder of its name in the path; add ':name' to the path or drop 'Path<…>'"
        case .multipleBodies:
            "an endpoint can have only one Body parameter; combine the values into one type"
        case .bodyAndFields:
            "a Body parameter cannot be combined with fields; make the fields properties of the body, or mark them Query or Header"
        case .formAndMultipart:
            "@URLForm and @Multipart cannot both apply to one endpoint; keep the one that matches the body"
        case .nonPartInMultipart:
            "under @Multipart every body parameter must be a Part; wrap the value in Part(data:fileName:mimeType:) or mark it Query or Header"
        case .malformedCompletionHandler:
            "a completion handler must be the last parameter, '@escaping (Result<T, any Error>) -> Void' or '@escaping (Response) -> Void', on a function with no return type"
        case .unsupportedReturnType:
            "this return type cannot be produced from a response; return a Decodable type, Data, String, Response, (T, Response), an optional of those, or nothing"
        case .invalidHeaderName:
            "this is not a valid header name; use letters, digits and !#$%&'*+-.^_`|~ only"
        case .invalidHeaderValue:
            "a header value cannot contain CR, LF or NUL; they would split or cut the header"
        case .pathPropertyWithoutPlaceholder:
            "this @PathParameter has no placeholder of its name in the path; add '{name}' to the path or give the placeholder's name with name:"
        case .endpointOnNonStruct:
            "@Endpoint can only be attached to a struct; a request type is a value"
        case .unannotatedRequestProperty:
            "this stored property is not part of the request; mark it @QueryItem, @PathParameter, @RequestHeader, @RequestBody, @BodyField … or make it computed"
        case .responseOnNonStruct:
            "@EndpointResponse can only be attached to a struct"
        case .unannotatedResponseProperty:
            "this stored property has no source in the response; mark it @ResponseBody, @ResponseErrorBody, @ResponseHeader, @ResponseStatusCode, @ResponseCookies or @NestedResponse"
        }
    }

    var diagnosticID: MessageID { MessageID(domain: "Courier", id: rawValue) }

    var severity: DiagnosticSeverity {
        self == .pathWithoutLeadingSlash || self == .unannotatedRequestProperty ? .warning : .error
    }
}

/// Messages naming the offending item, when the fixed text above is not enough.
struct NamedDiagnostic: DiagnosticMessage {
    let base: CourierDiagnostic
    let detail: String

    var message: String { "\(base.message) (\(detail))" }
    var diagnosticID: MessageID { base.diagnosticID }
    var severity: DiagnosticSeverity { base.severity }
}

struct CourierFixIt: FixItMessage {
    let message: String
    let id: String
    var fixItID: MessageID { MessageID(domain: "Courier", id: id) }
}
