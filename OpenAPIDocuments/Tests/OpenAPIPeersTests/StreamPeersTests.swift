import Courier
import Foundation
import Testing
@testable import OpenAPIPeerBidirectionalStreams
@testable import OpenAPIPeerChantGPT
@testable import OpenAPIPeerEventStreams

/// The streaming documents of swift-openapi-generator 1.14.3: JSON Lines down, JSON Lines up and
/// down, and the chant proxy's stream of deltas, each client courier-openapi wrote against the
/// server swift-openapi-generator wrote.
@Suite("swift-openapi-generator's streaming documents, against the servers it generates", .timeLimit(.minutes(2)))
struct StreamPeersTests {
    /// The `message` of a greeting the document gives no schema for.
    static func message(_ line: JSONValue) -> String? {
        guard case .object(let object) = line, case .string(let message)? = object["message"] else { return nil }
        return message
    }

    @Test("Event streams: the greetings arrive as JSON Lines, as many as asked for", arguments: TransportKind.allCases)
    func greetingsStream(transport: TransportKind) async throws {
        let service = OpenAPIPeerEventStreams.EventStreamsServiceAPI(provider: try await peerProvider(transport, "EventStreams"))
        var messages: [String?] = []
        for try await line in try await service.getGreetingsStream(name: "Courier", count: 3) {
            messages.append(Self.message(line))
        }
        #expect(messages == ["Hello 1, Courier!", "Hello 2, Courier!", "Hello 3, Courier!"])
        var count = 0
        for try await _ in try await service.getGreetingsStream(name: nil, count: nil) { count += 1 }
        #expect(count == 10)
    }

    @Test("Bidirectional streams: each line sent is answered", arguments: TransportKind.allCases)
    func bidirectional(transport: TransportKind) async throws {
        let service = OpenAPIPeerBidirectionalStreams.EventStreamsServiceAPI(provider: try await peerProvider(transport, "BidirectionalStreams"))
        let lines = Data("{\"message\":\"Hello\"}\n{\"message\":\"Good morning\"}\n".utf8)
        var answers: [String?] = []
        for try await line in try await service.getGreetingsStream(name: "Courier", body: lines) {
            answers.append(Self.message(line))
        }
        #expect(answers == ["Hello, Courier!", "Good morning, Courier!"])
    }

    @Test("The chant proxy: typed deltas, in order", arguments: TransportKind.allCases)
    func chant(transport: TransportKind) async throws {
        let chants = OpenAPIPeerChantGPT.ChantsAPI(provider: try await peerProvider(transport, "ChantGPT"))
        var deltas: [String] = []
        for try await message in try await chants.createChant(body: .init(userInput: "Go Bulls go")) {
            deltas.append(message.delta)
        }
        #expect(deltas == ["Go", "Bulls", "go"])
    }
}
