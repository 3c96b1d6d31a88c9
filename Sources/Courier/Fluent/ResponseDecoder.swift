public import Foundation

/// Turns a response into a request's value: `.json(T.self)`, `.text`, `.data`, `.none`, or a
/// closure over status, headers and body. Declare your own as static members.
public struct ResponseDecoder<Value>: Sendable {
    let decode: @Sendable (Response, any ResponseBodyDecoder) throws(CourierError) -> Value

    init(_ decode: @escaping @Sendable (Response, any ResponseBodyDecoder) throws(CourierError) -> Value) {
        self.decode = decode
    }

    /// A decoder from a closure over the status, the headers and the body; it runs only for
    /// 2xx statuses, and an error it throws becomes a ``CourierError/Kind/decoding`` error.
    public static func custom(_ decode: @escaping @Sendable (HTTPResponse.Status, HTTPFields, Data?) throws -> Value) -> ResponseDecoder<Value> {
        ResponseDecoder { response, _ throws(CourierError) in
            try response.validate()
            do {
                return try decode(response.status, response.headers, response.body)
            } catch {
                throw CourierError(.decoding(type: "\(Value.self)", bodyPrefix: ResponseDecoding.prefix(of: response.body ?? Data()), error), response: response)
            }
        }
    }
}

extension ResponseDecoder where Value: Decodable & SendableMetatype {
    /// The body decoded as `type` with the provider's (or the request's) decoder.
    public static func json(_ type: Value.Type) -> ResponseDecoder<Value> {
        ResponseDecoder { response, decoder throws(CourierError) in try response.decode(Value.self, using: decoder) }
    }
}

extension ResponseDecoder where Value == String {
    /// The body as text in the charset the response names.
    public static var text: ResponseDecoder<String> {
        ResponseDecoder { response, _ throws(CourierError) in
            try response.validate()
            guard let body = response.body else { return "" }
            return try ResponseDecoding.text(from: body, response: response)
        }
    }

    /// The body as text in `encoding`, whatever the response says.
    public static func text(encoding: String.Encoding) -> ResponseDecoder<String> {
        .custom { _, _, body in
            guard let text = String(data: body ?? Data(), encoding: encoding) else {
                throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "the body is not valid in \(encoding)"))
            }
            return text
        }
    }
}

extension ResponseDecoder where Value == Data {
    /// The body's bytes, empty when there is none.
    public static var data: ResponseDecoder<Data> {
        ResponseDecoder { response, _ throws(CourierError) in
            try response.validate()
            return response.body ?? Data()
        }
    }
}

extension ResponseDecoder where Value == Void {
    /// Nothing: only the status is checked.
    public static var none: ResponseDecoder<Void> {
        ResponseDecoder { response, _ throws(CourierError) in try response.validate() }
    }
}

extension ResponseDecoder where Value == Response {
    /// The response as it is, whatever its status.
    public static var response: ResponseDecoder<Response> {
        ResponseDecoder { response, _ in response }
    }
}
