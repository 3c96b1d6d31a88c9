public import Foundation
public import OpenAPIRuntime

/// The server swift-openapi-generator writes for this folder's openapi.yaml (Types.swift,
/// Server.swift), streaming the words of the request's input back, one JSON line each, as the
/// example's proxy streams a model's answer.
public enum ChantGPTPeer {
    public static func register(on transport: any ServerTransport, serverURL: URL) throws {
        try Handler().registerHandlers(on: transport, serverURL: serverURL)
    }
}

struct Handler: APIProtocol {
    func createChant(_ input: Operations.createChant.Input) async throws -> Operations.createChant.Output {
        let request = switch input.body { case .json(let request): request }
        let words = request.userInput.split(separator: " ").map { Components.Schemas.ChantMessage(delta: String($0)) }
        let stream = AsyncStream { continuation in
            for word in words { continuation.yield(word) }
            continuation.finish()
        }
        return .ok(.init(body: .application_jsonl(HTTPBody(stream.asEncodedJSONLines(), length: .unknown, iterationBehavior: .single))))
    }
}
