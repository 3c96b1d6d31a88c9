public import Foundation

// Entry points for the code `@API` generates. They are public because macro expansions compile in
// the user's module, which cannot see SPI; they are not meant to be called by hand.

extension ResponseDecoder where Value: Decodable & SendableMetatype {
    /// For generated code: the decoder of an endpoint returning `Value`.
    @inlinable
    public static func returning(_ type: Value.Type) -> ResponseDecoder { .json(type) }
}

extension ResponseDecoder where Value: ResponseDecodable & SendableMetatype {
    /// For generated code: the decoder of an endpoint returning `Value`.
    public static func returning(_ type: Value.Type) -> ResponseDecoder { .typed(type) }
}

extension ResponseDecoder where Value: ResponseDecodable & Decodable & SendableMetatype {
    /// For generated code: the decoder of an endpoint returning `Value`.
    public static func returning(_ type: Value.Type) -> ResponseDecoder { .typed(type) }
}

extension ResponseDecoder where Value == Data {
    /// For generated code: the decoder of an endpoint returning `Data`.
    public static func returning(_ type: Data.Type) -> ResponseDecoder { .data }
}

extension ResponseDecoder where Value == Data? {
    /// For generated code: the decoder of an endpoint returning `Data?`, `nil` for an empty body.
    public static func returning(_ type: Data?.Type) -> ResponseDecoder {
        ResponseDecoder(accept: nil) { response, _ throws(CourierError) in
            try response.validate()
            return response.body
        }
    }
}

extension ResponseDecoder where Value == String {
    /// For generated code: the decoder of an endpoint returning `String`.
    public static func returning(_ type: String.Type) -> ResponseDecoder { .text }
}

extension ResponseDecoder where Value == Void {
    /// For generated code: the decoder of an endpoint returning nothing.
    public static func returning(_ type: Void.Type) -> ResponseDecoder { .none }
}

extension ResponseDecoder where Value == Response {
    /// For generated code: the decoder of an endpoint returning ``Response``.
    public static func returning(_ type: Response.Type) -> ResponseDecoder { .response }
}

extension ResponseDecoder where Value == StreamedResponse {
    /// For generated code: the decoder of an endpoint returning ``StreamedResponse``.
    public static func returning(_ type: StreamedResponse.Type) -> ResponseDecoder { .stream }
}

extension ResponseDecoder {
    /// For generated code: the decoder of an endpoint returning `(T, Response)`.
    public static func returning<T: Decodable & SendableMetatype>(_ type: (T, Response).Type) -> ResponseDecoder where Value == (T, Response) {
        .withResponse(.json(T.self))
    }
}

extension Provider {
    /// For generated completion-handler endpoints: sends `request` and reports its value or any
    /// error.
    public func send<Value>(_ request: Request<Value>, completion: @escaping (Result<Value, any Error>) -> Void) {
        deliver(completion) { () async throws in try await self.send(request) }
    }

    /// For generated `(Response) -> Void` endpoints: sends `request` and reports the response,
    /// or a response carrying the error when the call failed.
    public func send(_ request: Request<Response>, completion: @escaping (Response) -> Void) {
        deliver({ (result: Result<Response, CourierError>) in completion(Response(result)) }) {
            () async throws(CourierError) in try await self.send(request)
        }
    }
}
