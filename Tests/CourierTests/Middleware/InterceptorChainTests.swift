import Courier
import CourierTestSupport
import Foundation
import HTTPTypes
import OpenAPIRuntime
import Testing

/// Records what an interceptor saw: the requests it ran around and the cache's answers it was
/// told of.
final class InterceptorLog: Sendable {
    let entries = Locked<[String]>([])
    var all: [String] { entries.withLock { $0 } }
    func record(_ entry: String) { entries.withLock { $0.append(entry) } }
}

/// An interceptor that prefixes the response body with its name and records what it sees.
struct Tagging: Interceptor {
    let name: String
    let log: InterceptorLog

    func intercept(req: RawRequest, next: Next) async throws -> Response {
        log.record("\(name) sent \(req.operationID) attempt \(req.attempt)")
        var response = try await next(req)
        response.body = Data("\(name)(".utf8) + (response.body ?? Data()) + Data(")".utf8)
        return response
    }

    func answeredFromCache(_ req: RawRequest, status: Int, outcome: CacheOutcome) async {
        let fresh = if case .hit = outcome { "hit" } else { "not fresh" }
        log.record("\(name) told \(status) \(fresh)")
    }
}

/// A swift-openapi-runtime middleware between the interceptors: adds a header on the way out.
struct HeaderAdding: ClientMiddleware {
    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var request = request
        request.headerFields[HTTPField.Name("X-Between")!] = "yes"
        return try await next(request, body, baseURL)
    }
}

@Suite("Interceptors and middleware in one chain", .timeLimit(.minutes(2)))
struct InterceptorChainTests {
    @Test("Each stage gets what the one further in returned: bodies as the inner interceptor left them, a middleware's header sent", arguments: TransportKind.allCases)
    func chain(transport: TransportKind) async throws {
        let log = InterceptorLog()
        let provider = try await transport.faultProvider(idle: .seconds(5))
            .intercept(Tagging(name: "outer", log: log))
            .with(middleware: HeaderAdding())
            .intercept(Tagging(name: "inner", log: log))
        let name = scriptName("chain", transport)
        FaultServer.script(name, [.answer(status: 200, body: "body")])
        let text = try await provider.send(Request(.get, "/script/\(name)", receiving: .text).modified { $0.operationID = "chained" })
        #expect(text == "outer(inner(body))")
        #expect(log.all == ["outer sent chained attempt 1", "inner sent chained attempt 1"])
        #expect(FaultServer.arrivals(ofScript: name).first?.header("X-Between") == "yes")
    }

    @Test("Interceptors of your own are told of the requests the cache answered without sending them", arguments: TransportKind.allCases)
    func toldOfCacheAnswers(transport: TransportKind) async throws {
        let log = InterceptorLog()
        var provider = try await transport.faultProvider(idle: .seconds(5))
        provider.cache = HTTPCache(byteLimit: 1 << 20)
        provider = provider
            .intercept(Tagging(name: "outer", log: log))
            .with(middleware: HeaderAdding())
            .intercept(Tagging(name: "inner", log: log))
        let name = scriptName("chain-cache", transport)
        FaultServer.script(name, [.answer(status: 200, headers: [("Cache-Control", "max-age=60")], body: "kept")])
        let request = Request(.get, "/script/\(name)", receiving: .text).modified { $0.operationID = "cached" }
        #expect(try await provider.send(request) == "outer(inner(kept))")
        // The second is the cache's: no interceptor runs around it, each is told.
        #expect(try await provider.send(request) == "outer(inner(kept))")
        #expect(log.all == ["outer sent cached attempt 1", "inner sent cached attempt 1", "outer told 200 hit", "inner told 200 hit"])
        #expect(FaultServer.arrivals(ofScript: name).count == 1)
    }
}
