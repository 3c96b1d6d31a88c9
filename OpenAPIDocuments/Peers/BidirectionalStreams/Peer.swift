public import Foundation
public import OpenAPIRuntime

/// The server swift-openapi-generator writes for this folder's openapi.yaml (Types.swift,
/// Server.swift), answering each JSON line of the request body, as it arrives, with a greeting
/// for the name given.
public enum BidirectionalStreamsPeer {
    public static func register(on transport: any ServerTransport, serverURL: URL) throws {
        try Handler().registerHandlers(on: transport, serverURL: serverURL)
    }
}

struct Handler: APIProtocol {
    func getGreetingsStream(_ input: Operations.getGreetingsStream.Input) async throws -> Operations.getGreetingsStream.Output {
        let name = input.query.name ?? "Stranger"
        let body = switch input.body { case .application_jsonl(let body): body }
        let answers = body.asDecodedJSONLines(of: Components.Schemas.Greeting.self)
            .map { Components.Schemas.Greeting(message: "\($0.message), \(name)!") }
        return .ok(.init(body: .application_jsonl(HTTPBody(answers.asEncodedJSONLines(), length: .unknown, iterationBehavior: .single))))
    }
}
