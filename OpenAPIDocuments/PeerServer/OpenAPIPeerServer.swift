import Foundation
import Hummingbird
import Logging
import OpenAPIHummingbird
import OpenAPIPeerAuthGreeting
import OpenAPIPeerBidirectionalStreams
import OpenAPIPeerChantGPT
import OpenAPIPeerContentTypes
import OpenAPIPeerEventStreams
import OpenAPIPeerGreeting
import OpenAPIPeerGreetingCount
import OpenAPIPeerIntegrationGreeting
import OpenAPIPeerOpenAIServer
import OpenAPIPeerPetstore
import OpenAPIPeerSwaggerGreeting
import OpenAPIPeerTutorialGreeting
import OpenAPIPeerTypeOverrides
import OpenAPIRuntime

/// One Hummingbird server, on 127.0.0.1 and a port the system picks, that answers each document
/// of Peers at `/peers/<folder>` with the server swift-openapi-generator wrote for
/// it, through swift-openapi-hummingbird: an implementation of each document independent of
/// courier-openapi, for the clients courier-openapi wrote to call.
public enum OpenAPIPeerServer {
    /// The server's port, started by the first call.
    public static func port() async throws -> Int { try await started.value }

    private static let started = Task<Int, any Error> { try await start() }

    private static let peers: [(String, @Sendable (any ServerTransport, URL) throws -> Void)] = [
        ("AuthGreeting", AuthGreetingPeer.register),
        ("BidirectionalStreams", BidirectionalStreamsPeer.register),
        ("ChantGPT", ChantGPTPeer.register),
        ("ContentTypes", ContentTypesPeer.register),
        ("EventStreams", EventStreamsPeer.register),
        ("Greeting", GreetingPeer.register),
        ("GreetingCount", GreetingCountPeer.register),
        ("IntegrationGreeting", IntegrationGreetingPeer.register),
        ("OpenAI", OpenAIPeer.register),
        ("Petstore", PetstorePeer.register),
        ("SwaggerGreeting", SwaggerGreetingPeer.register),
        ("TutorialGreeting", TutorialGreetingPeer.register),
        ("TypeOverrides", TypeOverridesPeer.register),
    ]

    private static func start() async throws -> Int {
        let router = Router()
        for (folder, register) in peers {
            guard let url = URL(string: "/peers/\(folder)") else { throw PeerServerError(message: "no URL for \(folder)") }
            try register(router, url)
        }
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        var logger = Logger(label: "openapi-peer-server")
        logger.logLevel = .error
        let app = Application(
            router: router,
            configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in
                continuation.yield(channel.localAddress?.port ?? 0)
                continuation.finish()
            },
            logger: logger
        )
        Task.detached {
            // A server that cannot run ends the wait for its port at once.
            do { try await app.run() } catch { continuation.finish() }
        }
        for await port in ports where port != 0 { return port }
        throw PeerServerError(message: "the server did not start")
    }
}

struct PeerServerError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
