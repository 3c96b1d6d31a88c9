import Courier
import CourierTestSupport
import Foundation
import HTTPTypes
import OpenAPIRuntime
import Testing

@Suite("Provider: base URLs, modifiers, interceptors and middleware against the server", .timeLimit(.minutes(2)))
struct ProviderTests {
    @Test(
        "The request path is appended to the base URL, with or without a trailing slash or prefix",
        arguments: [
            ("", "/echo/users"),
            ("/", "/echo/users"),
            ("/api/v1", "/api/v1/echo/users"),
            ("/api/v1/", "/api/v1/echo/users"),
        ]
    )
    func baseURLs(suffix: String, expected: String) async throws {
        let provider = Provider(baseURL: try await TestServer.baseURL() + suffix)
        #expect(try await provider.echo(RequestBuilder(method: .get, path: "/echo/users")).path == expected)
        #expect(try await provider.echo(RequestBuilder(method: .get, path: "echo/users")).path == expected)
    }

    @Test("A URL base URL works like a string one")
    func urlBaseURL() async throws {
        let url = try #require(URL(string: try await TestServer.baseURL("/api/v1/")))
        let provider = Provider(baseURL: url)
        #expect(try await provider.echo(RequestBuilder(method: .get, path: "/echo")).path == "/api/v1/echo")
    }

    @Test("An invalid base URL fails every request with an error naming it", arguments: ["not a url", "ftp://host", "/relative", ""])
    func invalidBaseURL(value: String) async throws {
        let transport = RecordingTransport()
        let provider = Provider(baseURL: value, transport: transport)
        let error = await #expect(throws: CourierError.self) { try await provider.echo(RequestBuilder(method: .get, path: "/echo")) }
        #expect(error?.kind == .invalidRequest)
        #expect(error?.message.contains(quotedForTest(value)) == true)
        // A request to an absolute URL fails too: the provider is misconfigured, whatever the request.
        var absolute = RequestBuilder(method: .get, path: "/")
        absolute.absoluteURL = URL(string: "http://127.0.0.1:9/echo")
        let absoluteError = await #expect(throws: CourierError.self) { try await provider.echo(absolute) }
        #expect(absoluteError?.kind == .invalidRequest)
        #expect(absoluteError?.message.contains(quotedForTest(value)) == true)
        #expect(transport.count == 0)
    }

    @Test("An Accept value that could split the header is refused before sending, with or without a modifier")
    func unsafeAccept() async throws {
        let transport = RecordingTransport()
        let plain = Provider(baseURL: "http://127.0.0.1:9", transport: transport)
        // With a modifier the builder is copied and changed; without one it is encoded in place.
        for provider in [plain, plain.modifyRequests { $0.addHeader("X-Modified", value: "1") }] {
            let request = Request(.get, "/echo", receiving: .text.accepting("text/plain\r\nX-Injected: 1"))
            let error = await #expect(throws: CourierError.self) { try await provider.send(request) }
            #expect(error?.kind == .invalidRequest)
            #expect(error?.message.contains("Accept") == true)
        }
        #expect(transport.count == 0)
    }

    @Test("Modifiers run in order before encoding, with Papyrus' shape")
    func modifiers() async throws {
        let provider = try await TestServer.provider()
            .modifyRequests { (req: inout RequestBuilder) in
                req.addHeader("X-First", value: "1")
                req.addQuery("client_id", value: "abc")
            }
            .modifyRequests { req in req.setHeader("X-First", value: "2") }
        let seen = try await provider.echo(RequestBuilder(method: .get, path: "/echo"))
        #expect(seen.headerValues("x-first") == ["2"])
        #expect(seen.query == "client_id=abc")
    }

    @Test("A throwing modifier is reported as a modifier failure naming where it was added")
    func throwingModifier() async throws {
        struct Denied: Error {}
        let provider = try await TestServer.provider().modifyRequests { _ in throw Denied() }
        let error = await #expect(throws: CourierError.self) { try await provider.echo(RequestBuilder(method: .get, path: "/echo")) }
        #expect(error?.kind == .modifier)
        #expect(error?.stage?.contains("ProviderTests.swift") == true)
        #expect(error?.underlyingError is Denied)
    }

    @Test("Interceptors wrap the request in order and see the response")
    func interceptors() async throws {
        let log = Log()
        let provider = try await TestServer.provider()
            .intercept { req, next in
                log.append("outer>\(req.method) \(req.path)")
                let res = try await next(req)
                log.append("outer<\(res.statusCode ?? 0)")
                return res
            }
            .intercept { req, next in
                var req = req
                req.headers[HTTPField.Name("X-Intercepted")!] = "yes"
                log.append("inner>")
                let res = try await next(req)
                log.append("inner<")
                return res
            }
        let seen = try await provider.echo(RequestBuilder(method: .get, path: "/echo/a"))
        #expect(seen.header("x-intercepted") == "yes")
        #expect(log.entries == ["outer>GET /echo/a", "inner>", "inner<", "outer<200"])
    }

    @Test("An interceptor may answer without calling next, and may change the response")
    func interceptorShortCircuit() async throws {
        let provider = try await TestServer.provider().intercept { req, _ in
            Response(head: HTTPResponse(status: .ok), body: Data(#"{"id":1,"name":"cached"}"#.utf8), request: req)
        }
        let user = try await provider.send(Request(RequestBuilder(method: .get, path: "/users/9"), receiving: .json(TestUser.self)))
        #expect(user == TestUser(id: 1, name: "cached"))
    }

    @Test("Any ClientMiddleware plugs in and sees the operation ID")
    func clientMiddleware() async throws {
        struct Stamp: ClientMiddleware {
            let log: Log
            func intercept(
                _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
                next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
            ) async throws -> (HTTPResponse, HTTPBody?) {
                log.append(operationID)
                var request = request
                request.headerFields[HTTPField.Name("X-Stamp")!] = operationID
                return try await next(request, body, baseURL)
            }
        }
        let log = Log()
        let provider = try await TestServer.provider().with(middleware: Stamp(log: log))
        let seen = try await provider.echo(RequestBuilder(method: .get, path: "/echo", operationID: "Echo.get"))
        #expect(seen.header("x-stamp") == "Echo.get")
        #expect(log.entries == ["Echo.get"])
    }

    @Test("A throwing middleware is blamed by name; a throwing interceptor by where it was added")
    func throwingMiddleware() async throws {
        struct Broken: ClientMiddleware {
            struct Failure: Error {}
            func intercept(
                _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
                next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
            ) async throws -> (HTTPResponse, HTTPBody?) { throw Failure() }
        }
        let provider = try await TestServer.provider().with(middleware: Broken())
        let error = await #expect(throws: CourierError.self) { try await provider.echo(RequestBuilder(method: .get, path: "/echo")) }
        #expect(error?.kind == .middleware)
        #expect(error?.stage?.contains("Broken") == true)
        #expect(error?.request?.path == "/echo")

        struct Nope: Error {}
        let intercepting = try await TestServer.provider().intercept { _, _ in throw Nope() }
        let second = await #expect(throws: CourierError.self) { try await intercepting.echo(RequestBuilder(method: .get, path: "/echo")) }
        #expect(second?.kind == .middleware)
        #expect(second?.stage?.contains("ProviderTests.swift") == true)
    }

    @Test("A status error from further in passes through an interceptor unchanged")
    func statusThroughInterceptor() async throws {
        let provider = try await TestServer.provider().intercept { req, next in try await next(req) }
        let error = await #expect(throws: CourierError.self) {
            try await provider.send(Request(RequestBuilder(method: .get, path: "/status/404"), receiving: .json(TestUser.self)))
        }
        #expect(error?.kind == .status)
        #expect(error?.response?.statusCode == 404)
    }

    @Test("A connection refused is a transport failure with the request attached")
    func transportFailure() async throws {
        let provider = Provider(baseURL: "http://127.0.0.1:1")
        let error = await #expect(throws: CourierError.self) {
            try await provider.send(Request(RequestBuilder(method: .get, path: "/x", operationID: "Down.get"), receiving: .data))
        }
        #expect(error?.kind == .transport)
        #expect(error?.operationID == "Down.get")
        #expect(error?.request?.path == "/x")
        #expect(error?.underlyingError != nil)
    }

    @Test("Cancelling the task surfaces as the cancellation kind")
    func cancellation() async throws {
        let provider = try await TestServer.provider()
        let task = Task { try await provider.send(Request(RequestBuilder(method: .get, path: "/slow"), receiving: .data)) }
        try await Task.sleep(for: .milliseconds(200))
        task.cancel()
        let result = await task.result
        #expect(throws: CourierError.self) { try result.get() }
        if case .failure(let error as CourierError) = result {
            #expect(error.kind == .cancelled)
        }
    }

    @Test("A response body past the limit is refused")
    func bodyLimit() async throws {
        var provider = try await TestServer.provider()
        provider.responseBodyLimit = 1000
        let error = await #expect(throws: CourierError.self) {
            try await provider.send(Request(RequestBuilder(method: .get, path: "/big"), receiving: .data))
        }
        #expect(error?.kind == .responseTooLarge)
        #expect(error?.message.contains("1000") == true)
    }
}

func quotedForTest(_ value: String) -> String { "'\(value)'" }
