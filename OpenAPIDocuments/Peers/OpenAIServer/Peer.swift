public import Foundation
import HTTPTypes
public import OpenAPIRuntime

/// The server swift-openapi-generator writes for the OpenAI document it ships (Types.swift,
/// Server.swift, for the operations its openapi-generator-config.yaml names). A chat completion
/// answers the text of the request's user messages, as one JSON value or, when the request asks
/// to stream, word by word as Server-Sent Events; an embedding has one vector per input. Each
/// answer is decoded from JSON into the generator's types, which check what the document requires.
public enum OpenAIPeer {
    public static func register(on transport: any ServerTransport, serverURL: URL) throws {
        try Handler().registerHandlers(on: transport, serverURL: serverURL, middlewares: [KeyMiddleware()])
    }
}

/// The document's `ApiKeyAuth`, a bearer token: `sk-test` is the only key it takes.
struct KeyMiddleware: ServerMiddleware {
    func intercept(
        _ request: HTTPRequest,
        body: HTTPBody?,
        metadata: ServerRequestMetadata,
        operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        guard request.headerFields[.authorization] == "Bearer sk-test" else { return (HTTPResponse(status: .unauthorized), nil) }
        return try await next(request, body, metadata)
    }
}

struct Handler: APIProtocol {
    struct Unreadable: Error {}

    static func decode<T: Decodable>(_ type: T.Type, _ json: String) throws -> T {
        try JSONDecoder().decode(T.self, from: Data(json.utf8))
    }

    /// `value` as a JSON object: what the generator's types read from the client's request.
    static func object(_ value: some Encodable) throws -> [String: Any] {
        guard let object = try JSONSerialization.jsonObject(with: JSONEncoder().encode(value)) as? [String: Any] else { throw Unreadable() }
        return object
    }

    static func quoted(_ text: String) throws -> String {
        String(decoding: try JSONEncoder().encode(text), as: UTF8.self)
    }

    func createChatCompletion(_ input: Operations.createChatCompletion.Input) async throws -> Operations.createChatCompletion.Output {
        let request = switch input.body { case .json(let request): request }
        let object = try Self.object(request)
        let model = object["model"] as? String ?? "unnamed"
        let messages = object["messages"] as? [[String: Any]] ?? []
        // A user message's content is text, or an array of parts (the document's `oneOf`).
        let texts = messages.filter { $0["role"] as? String == "user" }.flatMap { message -> [String] in
            if let text = message["content"] as? String { return [text] }
            return (message["content"] as? [[String: Any]] ?? []).compactMap { $0["text"] as? String }
        }
        let answer = "\(model) heard: \(texts.joined(separator: " / "))"
        if request.stream == true {
            let words = answer.split(separator: " ").map(String.init)
            var chunks: [ServerSentEventWithJSONData<Components.Schemas.CreateChatCompletionStreamResponse>] = []
            for (index, word) in words.enumerated() {
                let delta = index == 0 ? word : " " + word
                let finish = index == words.count - 1 ? "\"stop\"" : "null"
                let chunk = try Self.decode(Components.Schemas.CreateChatCompletionStreamResponse.self, """
                    {"id": "chunk-\(index)", "object": "chat.completion.chunk", "created": 1795687200, "model": \(try Self.quoted(model)),
                     "choices": [{"index": 0, "delta": {"role": "assistant", "content": \(try Self.quoted(delta))}, "finish_reason": \(finish)}]}
                    """)
                chunks.append(ServerSentEventWithJSONData(data: chunk))
            }
            let stream = AsyncStream { continuation in
                for chunk in chunks { continuation.yield(chunk) }
                continuation.finish()
            }
            return .ok(.init(body: .text_event_hyphen_stream(HTTPBody(stream.asEncodedServerSentEventsWithJSONData(), length: .unknown, iterationBehavior: .single))))
        }
        let response = try Self.decode(Components.Schemas.CreateChatCompletionResponse.self, """
            {"id": "completion-1", "object": "chat.completion", "created": 1795687200, "model": \(try Self.quoted(model)),
             "choices": [{"index": 0, "finish_reason": "stop", "logprobs": null,
                          "message": {"role": "assistant", "content": \(try Self.quoted(answer)), "refusal": null}}]}
            """)
        return .ok(.init(body: .json(response)))
    }

    func createEmbedding(_ input: Operations.createEmbedding.Input) async throws -> Operations.createEmbedding.Output {
        let request = switch input.body { case .json(let request): request }
        // The input is text, an array of texts, an array of tokens or an array of arrays of them.
        let object = try Self.object(request)
        let inputs: [Any] = switch object["input"] {
        case let text as String: [text]
        case let items as [Any] where items.first is [Any] || items.first is String: items
        case let tokens as [Any]: [tokens]
        default: []
        }
        let data = inputs.indices.map { index in
            "{\"index\": \(index), \"object\": \"embedding\", \"embedding\": [\(Double(index) + 0.5), -1.0, 0.25]}"
        }
        let response = try Self.decode(Components.Schemas.CreateEmbeddingResponse.self, """
            {"object": "list", "model": \(try Self.quoted(object["model"] as? String ?? "unnamed")), "data": [\(data.joined(separator: ", "))],
             "usage": {"prompt_tokens": \(inputs.count), "total_tokens": \(inputs.count)}}
            """)
        return .ok(.init(body: .json(response)))
    }

    func listModels(_ input: Operations.listModels.Input) async throws -> Operations.listModels.Output {
        let response = try Self.decode(Components.Schemas.ListModelsResponse.self, """
            {"object": "list", "data": [{"id": "gpt-4o", "object": "model", "created": 1795687200, "owned_by": "system"},
                                        {"id": "text-embedding-3-small", "object": "model", "created": 1795687201, "owned_by": "system"}]}
            """)
        return .ok(.init(body: .json(response)))
    }
}
