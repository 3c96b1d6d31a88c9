public import Foundation
public import OpenAPIRuntime
import Synchronization

/// The server swift-openapi-generator writes for this folder's openapi.yaml (Types.swift,
/// Server.swift), counting its greetings in memory where the example keeps them in PostgreSQL.
public enum GreetingCountPeer {
    public static func register(on transport: any ServerTransport, serverURL: URL) throws {
        try Handler().registerHandlers(on: transport, serverURL: serverURL)
    }
}

struct Handler: APIProtocol {
    static let greetings = Mutex(0)

    func getGreeting(_ input: Operations.getGreeting.Input) async throws -> Operations.getGreeting.Output {
        Self.greetings.withLock { $0 += 1 }
        return .ok(.init(body: .json(.init(message: "Hello, \(input.query.name ?? "Stranger")!"))))
    }

    func getCount(_ input: Operations.getCount.Input) async throws -> Operations.getCount.Output {
        .ok(.init(body: .json(.init(count: Self.greetings.withLock { $0 }))))
    }

    func reset(_ input: Operations.reset.Input) async throws -> Operations.reset.Output {
        Self.greetings.withLock { $0 = 0 }
        return .noContent(.init(body: .json(.init())))
    }
}
