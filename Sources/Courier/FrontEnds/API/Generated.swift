public import Foundation

// Entry points for the code the macros generate. They are public because macro expansions
// compile in the user's module, which cannot see SPI; the `__` prefix keeps them out of DocC and
// code completion, as Swift Testing does for the entry points of its expansions.

/// A response type whose decoder follows from the type alone — text, bytes, the response itself,
/// a body left unread, a typed stream, a ``ResponseDecodable`` type — for `@API` return types and
/// ``Endpoint`` responses.
public protocol __DefaultResponseDecodable {
    /// The decoder of this type.
    static var __defaultDecoder: ResponseDecoder<Self> { get }
}

extension String: __DefaultResponseDecodable {
    /// The body as text; from a JSON response whose body is a JSON string, that string.
    public static var __defaultDecoder: ResponseDecoder<String> {
        ResponseDecoder(accept: nil) { response, _ throws(CourierError) in
            try response.__validate()
            guard let body = response.body else { return "" }
            return try ResponseDecoding.string(from: body, response: response)
        }
    }
}

extension Data: __DefaultResponseDecodable {
    /// The body's bytes, not JSON.
    public static var __defaultDecoder: ResponseDecoder<Data> { .data }
}

extension Optional: __DefaultResponseDecodable where Wrapped == Data {
    /// The body's bytes, `nil` for an empty body.
    public static var __defaultDecoder: ResponseDecoder<Data?> {
        ResponseDecoder(accept: nil) { response, _ throws(CourierError) in
            try response.__validate()
            return response.body
        }
    }
}

extension Response: __DefaultResponseDecodable {
    /// The response as it is, whatever its status.
    public static var __defaultDecoder: ResponseDecoder<Response> { .response }
}

extension StreamedResponse: __DefaultResponseDecodable {
    /// The response with its body unread.
    public static var __defaultDecoder: ResponseDecoder<StreamedResponse> { .stream }
}

extension ResponseDecoder where Value: Decodable & SendableMetatype {
    /// For generated code: the decoder of an endpoint returning `Value`.
    @inlinable
    public static func __returning(_ type: Value.Type) -> ResponseDecoder { .json(type) }
}

extension ResponseDecoder where Value: __DefaultResponseDecodable {
    /// For generated code: the decoder of an endpoint returning `Value`.
    public static func __returning(_ type: Value.Type) -> ResponseDecoder { Value.__defaultDecoder }
}

extension ResponseDecoder where Value: __DefaultResponseDecodable & Decodable & SendableMetatype {
    /// For generated code: the decoder of an endpoint returning `Value`, chosen over JSON.
    public static func __returning(_ type: Value.Type) -> ResponseDecoder { Value.__defaultDecoder }
}

extension ResponseDecoder where Value == Void {
    /// For generated code: the decoder of an endpoint returning nothing.
    public static func __returning(_ type: Void.Type) -> ResponseDecoder { .none }
}

extension ResponseDecoder {
    /// For generated code: the decoder of an endpoint returning `(T, Response)`.
    public static func __returning<T: Decodable & SendableMetatype>(_ type: (T, Response).Type) -> ResponseDecoder where Value == (T, Response) {
        .withResponse(.json(T.self))
    }
}

extension Request {
    /// For generated code (`@API`): an endpoint's request, its method given by name as in
    /// ``RequestBuilder/__make(method:path:operationID:)``, with `describe` filling in its
    /// parameters, headers and body on the builder where the request keeps it — never copied.
    public static func __make(
        method: String,
        path: String,
        operationID: String,
        receiving decoder: ResponseDecoder<Value>,
        _ describe: (inout RequestBuilder) -> Void = { _ in }
    ) -> Request {
        var request = Request(RequestBuilder.__make(method: method, path: path, operationID: operationID), receiving: decoder)
        describe(&request.builder)
        return request
    }
}

extension Provider {
    /// For generated completion-handler endpoints: sends `request` and reports its value or any
    /// error.
    public func __send<Value>(_ request: Request<Value>, completion: @escaping (Result<Value, any Error>) -> Void) {
        deliver(completion) { () async throws in try await self.send(request) }
    }

    /// For generated `(Response) -> Void` endpoints: sends `request` and reports the response,
    /// or a response carrying the error when the call failed.
    public func __send(_ request: Request<Response>, completion: @escaping (Response) -> Void) {
        deliver({ (result: Result<Response, CourierError>) in completion(Response(result)) }) {
            () async throws(CourierError) in try await self.send(request)
        }
    }
}
