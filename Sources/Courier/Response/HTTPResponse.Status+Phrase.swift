import HTTPTypes

extension HTTPResponse.Status {
    /// The reason phrase the response carried, or the standard one for the code when it carried
    /// none (URLSession does not pass the phrase on).
    var displayPhrase: String {
        if !reasonPhrase.isEmpty { return reasonPhrase }
        return Self.standardPhrases[code] ?? ""
    }

    private static let standardPhrases: [Int: String] = Dictionary(
        [
            .switchingProtocols,
            .earlyHints,
            .ok,
            .created,
            .accepted,
            .nonAuthoritativeInformation,
            .noContent,
            .resetContent,
            .partialContent,
            .multipleChoices,
            .movedPermanently,
            .found,
            .seeOther,
            .notModified,
            .temporaryRedirect,
            .permanentRedirect,
            .badRequest,
            .unauthorized,
            .forbidden,
            .notFound,
            .methodNotAllowed,
            .notAcceptable,
            .proxyAuthenticationRequired,
            .requestTimeout,
            .conflict,
            .gone,
            .lengthRequired,
            .preconditionFailed,
            .contentTooLarge,
            .uriTooLong,
            .unsupportedMediaType,
            .rangeNotSatisfiable,
            .expectationFailed,
            .misdirectedRequest,
            .unprocessableContent,
            .tooEarly,
            .upgradeRequired,
            .preconditionRequired,
            .tooManyRequests,
            .requestHeaderFieldsTooLarge,
            .unavailableForLegalReasons,
            .internalServerError,
            .notImplemented,
            .badGateway,
            .serviceUnavailable,
            .gatewayTimeout,
            .httpVersionNotSupported,
            .networkAuthenticationRequired,
        ].map { (status: HTTPResponse.Status) in (status.code, status.reasonPhrase) },
        uniquingKeysWith: { first, _ in first }
    )
}
