import Courier
import Testing
@testable import OpenAPIPeerAuthGreeting
@testable import OpenAPIPeerGreeting
@testable import OpenAPIPeerGreetingCount
@testable import OpenAPIPeerIntegrationGreeting
@testable import OpenAPIPeerSwaggerGreeting
@testable import OpenAPIPeerTutorialGreeting

/// The greeting documents of swift-openapi-generator 1.14.3 (the examples', the integration
/// test's and the tutorial's): each client courier-openapi wrote, against the server
/// swift-openapi-generator wrote from the same document.
@Suite("swift-openapi-generator's greeting documents, against the servers it generates", .timeLimit(.minutes(2)))
struct GreetingPeersTests {
    // GreetingCount's greetings are counted, so only `counted` calls its client.
    static let folders = ["Greeting", "SwaggerGreeting", "IntegrationGreeting", "TutorialGreeting"]

    /// `getGreeting(name:)` through the client of the document in `folder`.
    func greet(_ folder: String, _ provider: Provider, _ name: String?) async throws -> String {
        switch folder {
        case "Greeting": try await OpenAPIPeerGreeting.GreetingServiceAPI(provider: provider).getGreeting(name: name).message
        case "SwaggerGreeting": try await OpenAPIPeerSwaggerGreeting.GreetingServiceAPI(provider: provider).getGreeting(name: name).message
        case "IntegrationGreeting": try await OpenAPIPeerIntegrationGreeting.GreetingsAPI(provider: provider).getGreeting(name: name).message
        case "TutorialGreeting": try await OpenAPIPeerTutorialGreeting.GreetingServiceAPI(provider: provider).getGreeting(name: name).message
        default: throw NoClient(folder: folder)
        }
    }

    struct NoClient: Error { let folder: String }

    @Test("getGreeting, with a name and without", arguments: folders, TransportKind.allCases)
    func greets(folder: String, transport: TransportKind) async throws {
        let provider = try await peerProvider(transport, folder)
        #expect(try await greet(folder, provider, "Courier") == "Hello, Courier!")
        #expect(try await greet(folder, provider, nil) == "Hello, Stranger!")
    }

    @Test("The servers each document names are constants of its client")
    func servers() {
        #expect(OpenAPIPeerGreeting.GreetingServiceServer.main == "https://example.com/api")
        #expect(OpenAPIPeerSwaggerGreeting.GreetingServiceServer.main == "/api")
        #expect(OpenAPIPeerSwaggerGreeting.GreetingServiceServer.server2 == "https://example.com/api")
    }

    @Test("The authenticated example: refused without a bearer token, greeted by it with one", arguments: TransportKind.allCases)
    func authenticated(transport: TransportKind) async throws {
        let provider = try await peerProvider(transport, "AuthGreeting")
        let refused = await #expect(throws: CourierError.self) {
            try await OpenAPIPeerAuthGreeting.GreetingServiceAPI(provider: provider).getGreeting(name: nil)
        }
        #expect(refused?.response?.statusCode == 401)
        let signedIn = OpenAPIPeerAuthGreeting.GreetingServiceAPI(provider: provider.modifyRequests { $0.setAuthorization(.bearer("Ada")) })
        #expect(try await signedIn.getGreeting(name: nil).message == "Hello, Ada!")
        #expect(try await signedIn.getGreeting(name: "Courier").message == "Hello, Courier!")
    }

    @Test("The database example: greetings counted, and a reset whose 204 has no body to read")
    func counted() async throws {
        // One transport after the other: the count is the server's, shared by both.
        for transport in TransportKind.allCases {
            let service = OpenAPIPeerGreetingCount.GreetingServiceAPI(provider: try await peerProvider(transport, "GreetingCount"))
            try await service.reset()
            _ = try await service.getGreeting(name: "one")
            _ = try await service.getGreeting(name: "two")
            #expect(try await service.getCount().count == 2, "\(transport)")
        }
    }
}
