public import Foundation
public import OpenAPIRuntime

/// The server swift-openapi-generator writes for this folder's openapi.yaml (Types.swift,
/// Server.swift), streaming `count` greetings as JSON Lines, or as Server-Sent Events when those
/// are what the request accepts.
public enum EventStreamsPeer {
    public static func register(on transport: any ServerTransport, serverURL: URL) throws {
        try Handler().registerHandlers(on: transport, serverURL: serverURL)
    }
}

struct Handler: APIProtocol {
    func getGreetingsStream(_ input: Operations.getGreetingsStream.Input) async throws -> Operations.getGreetingsStream.Output {
        let name = input.query.name ?? "Stranger"
        let greetings = (0..<Int(input.query.count ?? 10)).map { Components.Schemas.Greeting(message: "Hello \($0 + 1), \(name)!") }
        let accepted = input.headers.accept.map(\.contentType)
        if accepted.contains(.text_event_hyphen_stream) && !accepted.contains(.application_jsonl) {
            let events = greetings.async.map { ServerSentEventWithJSONData(event: "greeting", data: $0) }
            return .ok(.init(body: .text_event_hyphen_stream(HTTPBody(events.asEncodedServerSentEventsWithJSONData(), length: .unknown, iterationBehavior: .single))))
        }
        return .ok(.init(body: .application_jsonl(HTTPBody(greetings.async.asEncodedJSONLines(), length: .unknown, iterationBehavior: .single))))
    }
}

extension Array where Element: Sendable {
    /// The array as an async sequence, element by element.
    var async: AsyncStream<Element> {
        AsyncStream { continuation in
            for element in self { continuation.yield(element) }
            continuation.finish()
        }
    }
}
