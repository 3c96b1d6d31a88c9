import Foundation

/// A response type that reads itself from the whole HTTP response: status, headers, cookies and
/// body. The ``EndpointResponse(format:)`` macro writes the conformance.
///
/// Such a type names its own decoder, ``ResponseDecoder/typed(_:)``, wherever it is a response:
/// an `@API` function's return type, an ``Endpoint``'s `Response`.
public protocol ResponseDecodable: __DefaultResponseDecodable, Sendable {
    /// Reads `response`, decoding bodies with `decoder`.
    init(from response: Courier.Response, decoder: any BodyDecoder) throws(CourierError)
    /// The `Accept` header requests for this response send unless they set their own; `nil`
    /// sends none.
    static var acceptedContentType: String? { get }
}

extension ResponseDecodable {
    /// `application/json`.
    public static var acceptedContentType: String? { "application/json" }

    /// The type reads the whole response itself.
    public static var __defaultDecoder: ResponseDecoder<Self> { .typed(Self.self) }
}

/// The response of an endpoint that returns nothing to read: only the status is checked.
public struct EmptyResponse: ResponseDecodable, Equatable {
    /// The one empty response.
    public init() {}

    /// Checks the status.
    public init(from response: Courier.Response, decoder: any BodyDecoder) throws(CourierError) {
        try response.__validate()
    }

    /// None.
    public static var acceptedContentType: String? { nil }
}
