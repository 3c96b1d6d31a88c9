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
    // Both struct macros.
    case twoPropertyAttributes
    case attributeOnStaticProperty
    case attributeOnSeveralProperties
    case nameNotStringLiteral
    case emptyName
    case propertyTypeMismatch
    // `@Endpoint`.
    case invalidMethodName
    case lowercaseMethodName
    case methodAttributeOnStruct
    case multipartOnStruct
    case ownMakeRequest
    case optionalPathParameter
    case placeholderFilledTwice
    case fieldNamedTwice
    case requestPartTwice
    case methodReplacedByProperty
    case absoluteURLAndRequestPath
    case pathReplacedByAbsoluteURL
    case bodyWithoutMethodForIt
    case renamedIntercept
    case staticRetryPolicy
    // `@EndpointResponse`.
    case responsePartTwice
    case severalStatusFilters
    case invalidStatusCode
    case sameStatusesAsOtherBody
    case overlappingStatuses
    case bodyForFailingStatus
    case requiredBodyBesideOthers
    case untypedResponseProperty
    case computedResponseProperty
    case initializedLetResponseProperty

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
        case .twoPropertyAttributes:
            "a property can have only one of these attributes, which says where its value goes; remove all but one"
        case .attributeOnStaticProperty:
            "a static property belongs to no one value, so the macro does not read it; make it an instance property"
        case .attributeOnSeveralProperties:
            "this attribute applies to one property with a plain name; declare each property on a line of its own with its own attribute"
        case .nameNotStringLiteral:
            "the name must be a string literal without interpolation, so that it can be checked at compile time"
        case .emptyName:
            "the name is empty; give one, or leave name: out to use the property's"
        case .propertyTypeMismatch:
            "this property's type is not the one its attribute reads or writes; change the type"
        case .invalidMethodName:
            "this is not a valid method name; use letters, digits and !#$%&'*+-.^_`|~ only, or a method such as .get"
        case .lowercaseMethodName:
            "method names are case-sensitive and this one is sent as written, not as the standard upper-case method"
        case .methodAttributeOnStruct:
            "a method attribute belongs to a function of an @API protocol, and @Endpoint does not read it; give the method and path to @Endpoint"
        case .multipartOnStruct:
            "@Multipart does not apply to a request struct; give the body as a MultipartForm property marked @RequestBody"
        case .renamedIntercept:
            "an Endpoint's hook is now 'beforeSending(_:)'; 'intercept(request:)' is its deprecated name, still called after it for one release"
        case .staticRetryPolicy:
            "an Endpoint's retry policy is now the instance property 'retryPolicy'; the static one is deprecated, still read when the instance one is nil for one release"
        case .ownMakeRequest:
            "@Endpoint writes makeRequest() from the annotated properties; remove this one, or remove @Endpoint and conform to Endpoint yourself"
        case .optionalPathParameter:
            "a path value cannot be left out, so a nil here fails the request when it is sent; make the property non-optional"
        case .placeholderFilledTwice:
            "another @PathParameter already fills this placeholder, and only one value can; remove one or give each its own placeholder with name:"
        case .fieldNamedTwice:
            "another body field has this name, and the body holds each name once; give one of them another name with name:"
        case .requestPartTwice:
            "a request has one method, one path and one absolute URL; remove all but one of these properties"
        case .methodReplacedByProperty:
            "the @RequestHTTPMethod property replaces this method on every request, so it is never sent; give the method as the property's initial value"
        case .absoluteURLAndRequestPath:
            "a non-optional @AbsoluteURL replaces the path on every request, so a @RequestPath beside it is never sent; keep one of the two, or make the URL optional to fall back on the path"
        case .pathReplacedByAbsoluteURL:
            "a non-optional @AbsoluteURL replaces this path on every request, so it is never sent; remove the path, or make the URL optional to fall back on it"
        case .bodyWithoutMethodForIt:
            "this method sends no body: servers may ignore one, and URLSession on Apple platforms refuses to send it (AsyncHTTPClient sends it); send the value as a @QueryItem, or name a method that takes a body, such as .post"
        case .responsePartTwice:
            "another property already reads this part of the response, so both always hold the same value; remove this one"
        case .severalStatusFilters:
            "a body is read for the statuses of one of status:, statuses: or strategy:, and the others would be ignored; keep one"
        case .invalidStatusCode:
            "a status code is a number from 100 to 599"
        case .sameStatusesAsOtherBody:
            "another body is read for exactly these statuses, so one response fills both; remove one, or give each its own statuses"
        case .overlappingStatuses:
            "another body is also read for some of these statuses, so one response fills both; give the bodies statuses that do not overlap"
        case .bodyForFailingStatus:
            "a response without @ResponseErrorBody throws on a status outside 200–299 before any body is read, so this body never is; read it with @ResponseErrorBody"
        case .requiredBodyBesideOthers:
            "a non-optional body fails the whole response on every status it is not read for, so the response's other statuses never reach you; make it optional"
        case .untypedResponseProperty:
            "the macro reads a property as its written type; write the type, such as ': Item?'"
        case .computedResponseProperty:
            "a computed property stores nothing, so nothing can be read into it; make it a stored 'var' or remove the attribute"
        case .initializedLetResponseProperty:
            "a 'let' with an initial value cannot be set from the response; make it 'var', or remove the initial value"
        }
    }

    var diagnosticID: MessageID { MessageID(domain: "Courier", id: rawValue) }

    var severity: DiagnosticSeverity {
        switch self {
        case .pathWithoutLeadingSlash, .unannotatedRequestProperty, .lowercaseMethodName, .optionalPathParameter,
            .pathReplacedByAbsoluteURL, .bodyWithoutMethodForIt, .responsePartTwice, .overlappingStatuses, .sameStatusesAsOtherBody,
            .methodReplacedByProperty, .renamedIntercept, .staticRetryPolicy:
            .warning
        default:
            .error
        }
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
