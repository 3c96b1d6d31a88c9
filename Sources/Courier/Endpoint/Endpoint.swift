import Foundation

/// A request declared as a type: its properties are its parameters, its `Response` what comes
/// back.
///
/// Write it with the ``Endpoint(_:_:)`` macro, which reads the annotated properties and
/// implements ``makeRequest()`` — setting each parameter directly, without reflection:
///
/// ```swift
/// @Endpoint(.post, "/profiles/{userID}")
/// struct UpdateProfile {
///     typealias Response = Profile
///     @PathParameter var userID: String
///     @QueryItem var notify: Bool?
///     @RequestHeader(name: "X-Request-ID") var requestID: String?
///     @RequestBody var body: ProfileChanges
/// }
///
/// let profile = try await provider.send(UpdateProfile(userID: "ada", notify: true, body: changes))
/// ```
public protocol Endpoint: Sendable {
    /// What a response becomes: any `Decodable` (the body, decoded as JSON on success), a type
    /// made with ``EndpointResponse()``, ``EmptyResponse``, or ``Response``.
    associatedtype Response

    /// The request this value describes.
    func makeRequest() -> RequestBuilder

    /// Checks a response before it is decoded; throw to fail the call with
    /// ``CourierError/Kind/validation``. Does nothing unless you implement it.
    func validate(_ response: Courier.Response) throws
}

extension Endpoint {
    public func validate(_ response: Courier.Response) throws {}
}

/// A response type that reads itself from the whole HTTP response: status, headers, cookies and
/// body. The ``EndpointResponse()`` macro writes the conformance.
public protocol ResponseDecodable: Sendable {
    /// Reads `response`, decoding bodies with `decoder`.
    init(from response: Courier.Response, decoder: any ResponseBodyDecoder) throws(CourierError)
    /// The `Accept` header requests for this response send unless they set their own; `nil`
    /// sends none.
    static var acceptedContentType: String? { get }
}

extension ResponseDecodable {
    public static var acceptedContentType: String? { "application/json" }
}

/// The response of an endpoint that returns nothing to read: only the status is checked.
public struct EmptyResponse: ResponseDecodable, Equatable {
    public init() {}

    public init(from response: Courier.Response, decoder: any ResponseBodyDecoder) throws(CourierError) {
        try response.validate()
    }

    public static var acceptedContentType: String? { nil }
}
