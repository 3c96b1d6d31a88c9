import AsyncHTTPClient
import Courier
import CourierAsyncHTTPClient
import CourierTestSupport
import Foundation
import NIOCore
import Testing

@Suite("The default transport of each platform", .timeLimit(.minutes(1)))
struct DefaultTransportTests {
    @Test("Provider(baseURL:) uses AsyncHTTPClient on Linux and URLSession on Apple platforms; the other is one argument away")
    func defaultPerPlatform() async throws {
        let provider = Provider(baseURL: "http://127.0.0.1:1")
        #if os(Linux)
        #expect(provider.transport is HTTPClientTransport)
        #else
        #expect(!(provider.transport is HTTPClientTransport))
        #endif
        let urlSession = Provider(baseURL: try await TestServer.baseURL(), transport: Provider.urlSessionTransport)
        #expect(!(urlSession.transport is HTTPClientTransport))
        #expect(try await urlSession.send(Request(.get, "/users/3", receiving: .json(TestUser.self))) == TestUser(id: 3, name: "Ada"))
    }

    @Test("On the default transport a 401 with a Basic challenge comes back at once as a status error")
    func basicChallenge() async throws {
        let started = ContinuousClock.now
        let error = await #expect(throws: CourierError.self) {
            try await TestServer.provider().send(Request(.get, "/challenge", receiving: .none).timeout(.seconds(60)))
        }
        #expect(error?.kind == .status)
        #expect(error?.response?.statusCode == 401)
        #expect(error?.response?.headers[.wwwAuthenticate] == #"Basic realm="courier""#)
        // Well within the 60 s bound, with room for a slow machine starting the test server: a
        // challenged 401 used to leave the call waiting for good, until it ended as a timeout.
        #expect(ContinuousClock.now - started < .seconds(20) * timeScale)
    }

    @Test("AsyncHTTPClient's Courier configuration bounds a body that stops arriving, streamed or not")
    func stalledBody() async throws {
        #expect(HTTPClient.Configuration.courierDefault.timeout.read == .seconds(30))
        var configuration = HTTPClient.Configuration.courierDefault
        configuration.timeout.read = .seconds(1)
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        // The client is shut down whatever happens: AsyncHTTPClient traps on a client dropped running.
        let outcome: Result<Void, any Error>
        do {
            var provider = try await TestServer.provider()
            provider.transport = HTTPClientTransport(client: client)
            let started = ContinuousClock.now
            await #expect(throws: CourierError.self) { try await provider.send(Request(.get, "/stall-body", receiving: .data)) }
            await #expect(throws: CourierError.self) {
                let streamed = try await provider.send(Request(.get, "/stall-body", receiving: .stream))
                _ = try await streamed.collect(upTo: 1 << 20)
            }
            #expect(ContinuousClock.now - started < .seconds(20))
            outcome = .success(())
        } catch {
            outcome = .failure(error)
        }
        try await client.shutdown()
        try outcome.get()
    }

    @Test("A deadline of the AsyncHTTPClient transport is a timeout, as on URLSession")
    func transportTimeout() async throws {
        var provider = try await TestServer.provider()
        provider.transport = HTTPClientTransport(client: TransportKind.client, timeout: .milliseconds(300))
        let error = await #expect(throws: CourierError.self) { try await provider.send(Request(.get, "/slow", receiving: .none)) }
        #expect(error?.kind == .timeout)
        // The transport's error presents itself as URLSession's timeout does.
        let underlying = try #require(error?.underlyingError as? any CustomNSError)
        #expect(type(of: underlying).errorDomain == NSURLErrorDomain)
        #expect(underlying.errorCode == NSURLErrorTimedOut)
    }
}
