public import Foundation
public import OpenAPIRuntime

/// The server swift-openapi-generator writes for this folder's openapi.yaml (Types.swift,
/// Server.swift), answering a greeting for the name given.
public enum IntegrationGreetingPeer {
    public static func register(on transport: any ServerTransport, serverURL: URL) throws {
        try Handler().registerHandlers(on: transport, serverURL: serverURL)
    }
}

struct Handler: APIProtocol {
    func getGreeting(_ input: Operations.getGreeting.Input) async throws -> Operations.getGreeting.Output {
        .ok(.init(body: .json(.init(message: "Hello, \(input.query.name ?? "Stranger")!"))))
    }
}
