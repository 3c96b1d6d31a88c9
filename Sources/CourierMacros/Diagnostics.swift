import SwiftDiagnostics

/// Every problem the macros report, each with a message that says what is wrong, why, and how to
/// fix it.
enum CourierDiagnostic: String, DiagnosticMessage {
    case apiOnNonProtocol
    case requirementNotFunction
    case missingMethodAttribute
    case duplicateMethodAttribute
    case notAsyncThrows
    case pathNotStringLiteral
    case placeholderWithoutParameter
    case pathParameterWithoutPlaceholder
    case multipleBodies
    case bodyAndFields

    var message: String {
        switch self {
        case .apiOnNonProtocol:
            "@API can only be attached to a protocol; declare the endpoints as requirements of a protocol"
        case .requirementNotFunction:
            "only functions can be endpoints of an @API protocol; remove this requirement or move it to another protocol"
        case .missingMethodAttribute:
            "an endpoint needs a method attribute such as @GET(\"/path\") to say how it is sent"
        case .duplicateMethodAttribute:
            "an endpoint can have only one method attribute; remove all but one"
        case .notAsyncThrows:
            "an endpoint must be 'async throws' because sending a request suspends and can fail"
        case .pathNotStringLiteral:
            "the path must be a string literal without interpolation, so that it can be checked at compile time"
        case .placeholderWithoutParameter:
            "the path has a placeholder that no parameter fills; add a parameter of that name or remove the placeholder"
        case .pathParameterWithoutPlaceholder:
            "this Path parameter has no placeholder of its name in the path; add ':name' to the path or drop 'Path<…>'"
        case .multipleBodies:
            "an endpoint can have only one Body parameter; combine the values into one type"
        case .bodyAndFields:
            "a Body parameter cannot be combined with Field parameters; make the fields properties of the body"
        }
    }

    var diagnosticID: MessageID { MessageID(domain: "Courier", id: rawValue) }

    var severity: DiagnosticSeverity { .error }
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
