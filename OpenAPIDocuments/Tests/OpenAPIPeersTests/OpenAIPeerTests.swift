import Courier
import Foundation
import Testing
@testable import OpenAPIPeerOpenAI

/// The OpenAI document swift-openapi-generator ships (26,800 lines, 19 tags, `oneOf` and
/// `anyOf` throughout, chat completions as JSON or as a stream): the client courier-openapi wrote
/// for all of it, calling the operations the server swift-openapi-generator wrote answers.
@Suite("The OpenAI document, against the server swift-openapi-generator generates", .timeLimit(.minutes(2)))
struct OpenAIPeerTests {
    static let key = AuthorizationHeader.bearer("sk-test")

    static func request(stream: Bool? = nil) -> CreateChatCompletionRequest {
        CreateChatCompletionRequest(
            messages: [
                .system(.init(content: .string("Answer briefly."), role: .system)),
                .user(.init(content: .string("Hello"), role: .user)),
                // The other member of the content's `oneOf`: an array of parts.
                .user(.init(
                    content: .parts([.text(.init(type: .text, text: "and goodbye"))]),
                    role: .user
                )),
            ],
            model: .string("gpt-4o"),
            stream: stream
        )
    }

    @Test("A chat completion: the messages' `oneOf` members encoded as the server reads them, the answer decoded", arguments: TransportKind.allCases)
    func chatCompletion(transport: TransportKind) async throws {
        let chat = ChatAPI(provider: try await peerProvider(transport, "OpenAI"))
        let completion = try await chat.createChatCompletion(body: Self.request(), authorization: Self.key)
        #expect(completion.model == "gpt-4o" && completion.object == .chatCompletion)
        #expect(completion.choices.first?.message.content == "gpt-4o heard: Hello / and goodbye")
        #expect(completion.choices.first?.message.role == .assistant)
    }

    @Test("The same operation as a stream: `createChatCompletionStream` reads its Server-Sent Events", arguments: TransportKind.allCases)
    func chatCompletionStream(transport: TransportKind) async throws {
        let chat = ChatAPI(provider: try await peerProvider(transport, "OpenAI"))
        var text = ""
        var chunks = 0
        for try await chunk in try await chat.createChatCompletionStream(body: Self.request(stream: true), authorization: Self.key) {
            chunks += 1
            #expect(chunk.object == .chatCompletionChunk)
            text += chunk.choices.first?.delta.content ?? ""
        }
        #expect(text == "gpt-4o heard: Hello / and goodbye")
        #expect(chunks == 6)
    }

    @Test("Embeddings, one vector per input, for each member of the input's `oneOf`", arguments: TransportKind.allCases)
    func embeddings(transport: TransportKind) async throws {
        let embeddings = EmbeddingsAPI(provider: try await peerProvider(transport, "OpenAI"))
        let inputs: [(CreateEmbeddingRequest.Input, Int)] = [(.string("one"), 1), (.stringList(["one", "two"]), 2), (.intList([1, 2, 3]), 1), (.intListList([[1], [2], [3]]), 3)]
        for (input, count) in inputs {
            let answer = try await embeddings.createEmbedding(body: .init(input: input, model: .string("text-embedding-3-small")), authorization: Self.key)
            #expect(answer.data.count == count, "\(input)")
            #expect(answer.data.last?.embedding == [Double(count) - 0.5, -1.0, 0.25])
            #expect(answer.usage.promptTokens == count && answer.model == "text-embedding-3-small")
        }
    }

    @Test("The models, listed; the document's bearer key is the call's `authorization`, and a wrong one is refused", arguments: TransportKind.allCases)
    func models(transport: TransportKind) async throws {
        let models = ModelsAPI(provider: try await peerProvider(transport, "OpenAI"))
        let refused = await #expect(throws: CourierError.self) { try await models.listModels(authorization: .bearer("sk-wrong")) }
        #expect(refused?.response?.statusCode == 401)
        let list = try await models.listModels(authorization: Self.key)
        #expect(list.data.map(\.id) == ["gpt-4o", "text-embedding-3-small"])
        #expect(list.data.first?.ownedBy == "system" && list.data.first?.created == 1_795_687_200)
    }
}
