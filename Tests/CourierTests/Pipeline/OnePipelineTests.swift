import Courier
import CourierTestSupport
import Foundation
import Testing

/// The former disagreements between front-ends, each checked on every front-end.
@API
protocol Agreement {
    @POST("/echo/agree/:id")
    func agree(id: Int, q: Query<String>, body: Body<Profile>) async throws -> Echo

    @GET("/echo/plain")
    func plain() async throws -> Echo

    @GET("/slow")
    func slow() async throws -> StreamedResponse

    @GET("/bytes/:count")
    func bytes(count: Int) async throws -> StreamedResponse

    @GET("/snake")
    func snake() async throws -> SnakeUser

    @GET("/empty")
    func emptyData() async throws -> Data
    @GET("/empty")
    func emptyOptionalData() async throws -> Data?
    @GET("/empty")
    func emptyText() async throws -> String
    @GET("/empty")
    func emptyOptionalUser() async throws -> TestUser?
    @GET("/empty")
    func emptyUser() async throws -> TestUser
    @GET("/empty")
    func emptyVoid() async throws
}

struct SnakeUser: Codable, Equatable, Sendable {
    var userId: Int
    var displayName: String
    var isAdmin: Bool
}

@Endpoint(.post, "/echo/agree/{id}")
struct AgreeEndpoint {
    typealias Response = Echo
    @PathParameter var id: Int
    @QueryItem var q: String
    @RequestBody var body: Profile

    func validate(_ response: Courier.Response) throws {
        guard response.headers[.contentType]?.hasPrefix("application/json") == true else { throw Refused() }
    }
}

@Endpoint(.get, "/users/1")
struct RefusingEndpoint {
    typealias Response = TestUser
    func validate(_ response: Courier.Response) throws { throw Refused() }
}

@Endpoint(.get, "/slow")
struct SlowStream {
    typealias Response = StreamedResponse
}

@Endpoint(.get, "/bytes/100")
struct ShortStream {
    typealias Response = StreamedResponse
}

@Endpoint(.get, "/echo/plain")
struct PlainEcho {
    typealias Response = Echo
}

@Endpoint(.get, "/snake")
struct SnakeEndpoint {
    typealias Response = SnakeUser
}

@Endpoint(.get, "/empty") struct EmptyData { typealias Response = Data }
@Endpoint(.get, "/empty") struct EmptyOptionalData { typealias Response = Data? }
@Endpoint(.get, "/empty") struct EmptyText { typealias Response = String }
@Endpoint(.get, "/empty") struct EmptyOptionalUser { typealias Response = TestUser? }
@Endpoint(.get, "/empty") struct EmptyUser { typealias Response = TestUser }
@Endpoint(.get, "/empty") struct EmptyNothing { typealias Response = EmptyResponse }

struct Refused: Error {}

/// A `WebService` API that brings no provider of its own.
struct ConnectionAPI: WebService {
    let baseURL: URL
}

struct ConnectionPort: Decodable { var port: Int }

@Suite("One pipeline: every front-end sends, validates, times out and decodes alike", .timeLimit(.minutes(2)))
struct OnePipelineTests {
    @Test("Request(endpoint) puts the same bytes on the wire as send(endpoint), Accept included", arguments: TransportKind.allCases)
    func endpointRequestMatchesSend(transport: TransportKind) async throws {
        let provider = try await transport.provider()
        let endpoint = AgreeEndpoint(id: 7, q: "a b", body: Profile(name: "Ada", age: 36))
        let sent = try await provider.send(endpoint)
        let built = try await provider.send(Request(endpoint))
        #expect(sent.method == built.method)
        #expect(sent.target == built.target)
        // URLSession on Linux orders headers differently from one request to the next.
        #expect(sent.headers.sorted { $0[0] < $1[0] } == built.headers.sorted { $0[0] < $1[0] })
        #expect(sent.body == built.body)
        #expect(sent.header("accept") == "application/json")
        #expect(sent.target == "/echo/agree/7?q=a%20b")

        // And the @API and fluent forms of the same request agree with both.
        let api = try await AgreementAPI(provider: provider).agree(id: 7, q: "a b", body: Profile(name: "Ada", age: 36))
        let fluent = try await provider.send(
            Request(.post, "/echo/agree/:id", receiving: .json(Echo.self)).parameter("id", 7).query("q", "a b").body(.json(Profile(name: "Ada", age: 36)))
        )
        for other in [api, fluent] {
            #expect(other.target == sent.target)
            #expect(other.header("accept") == "application/json")
            #expect(other.bodyText == sent.bodyText)
            #expect(other.header("content-type") == sent.header("content-type"))
        }
    }

    @Test("A JSON GET with no fields of its own sends Accept alone, before and after a POST adds its body's fields: every front-end", arguments: TransportKind.allCases)
    func acceptAloneThenBodyFields(transport: TransportKind) async throws {
        let provider = try await transport.provider()
        let api = AgreementAPI(provider: provider)
        func gets() async throws -> [Echo] {
            [
                try await api.plain(),
                try await provider.send(PlainEcho()),
                try await provider.send(Request(.get, "/echo/plain", receiving: .json(Echo.self))),
            ]
        }
        func expectAcceptAlone(_ echoes: [Echo]) {
            for echo in echoes {
                #expect(echo.headerValues("accept") == ["application/json"])
                #expect(echo.header("content-type") == nil)
                #expect(echo.header("content-length") == nil || echo.header("content-length") == "0")
            }
        }
        expectAcceptAlone(try await gets())
        // A body's fields join a copy of the request's list, never the list the GETs share.
        let posted = try await api.agree(id: 1, q: "x", body: Profile(name: "Ada", age: 36))
        #expect(posted.headerValues("accept") == ["application/json"])
        #expect(posted.header("content-type") == "application/json")
        expectAcceptAlone(try await gets())
    }

    @Test("Request(endpoint) and send(endpoint) run the endpoint's validation alike")
    func endpointValidation() async throws {
        let provider = try await TestServer.provider()
        for send in [
            { () async throws in _ = try await provider.send(RefusingEndpoint()) },
            { () async throws in _ = try await provider.send(Request(RefusingEndpoint())) },
        ] {
            let error = await #expect(throws: CourierError.self) { try await send() }
            #expect(error?.kind == .validation)
            #expect(error?.stage?.contains("RefusingEndpoint.validate") == true)
            #expect(error?.underlyingError is Refused)
            #expect(error?.response?.statusCode == 200)
        }
    }

    @Test("A streamed response passes the provider's validators, on every front-end and transport", arguments: TransportKind.allCases)
    func streamedValidation(transport: TransportKind) async throws {
        let provider = try await transport.provider().validating { response in
            if response.headers[.contentType] == "application/octet-stream" { throw Refused() }
        }
        let attempts: [@Sendable () async throws -> StreamedResponse] = [
            { () async throws in try await provider.send(Request(.get, "/bytes/100", receiving: .stream)) },
            { () async throws in try await provider.send(ShortStream()) },
            { () async throws in try await provider.send(AgreementAPI.Requests.bytes(count: 100)) },
        ]
        for attempt in attempts {
            let error = await #expect(throws: CourierError.self) { try await attempt() }
            #expect(error?.kind == .validation)
            #expect(error?.underlyingError is Refused)
        }
        // Without the validator the same requests stream.
        let plain = try await transport.provider()
        #expect(try await plain.send(ShortStream()).collect(upTo: 1000).count == 100)
    }

    @Test("A streamed request is timed out, on every front-end and transport", arguments: TransportKind.allCases)
    func streamedTimeout(transport: TransportKind) async throws {
        let provider = try await transport.provider()
        let limit = Duration.milliseconds(300)
        let requests: [Request<StreamedResponse>] = [
            Request(.get, "/slow", receiving: .stream).timeout(limit),
            Request(SlowStream()).timeout(limit),
            AgreementAPI.Requests.slow().timeout(limit),
        ]
        for request in requests {
            let started = ContinuousClock.now
            let error = await #expect(throws: CourierError.self) { try await provider.send(request) }
            #expect(error?.kind == .timeout)
            // /slow answers after 30 s: only the 300 ms bound ends the call this soon, with room
            // for a slow machine (a sanitizer, a parallel suite on two cores).
            #expect(ContinuousClock.now - started < .seconds(20))
        }
    }

    @Test("The JSON decoder honours the provider's key mapping on every front-end, the parser spelling included")
    func keyMapping() async throws {
        let provider = try await TestServer.provider(keyMapping: .snakeCase)
        let expected = SnakeUser(userId: 7, displayName: "Ada Lovelace", isAdmin: true)
        #expect(try await AgreementAPI(provider: provider).snake() == expected)
        #expect(try await provider.send(SnakeEndpoint()) == expected)
        #expect(try await provider.send(Request(.get, "/snake", receiving: .json(SnakeUser.self))) == expected)
        #expect(try await provider.send(RequestBuilder(method: .get, path: "/snake"), parser: .json(SnakeUser.self)) == expected)
        // A decoder given to `.json` is used as it is.
        let own = JSONDecoder()
        own.keyDecodingStrategy = .convertFromSnakeCase
        let plain = try await TestServer.provider()
        #expect(try await plain.send(Request(.get, "/snake", receiving: .json(SnakeUser.self, decoder: own))) == expected)
        await #expect(throws: CourierError.self) { try await plain.send(Request(.get, "/snake", receiving: .json(SnakeUser.self))) }
    }

    @Test("Empty bodies read the same on every front-end")
    func emptyBodies() async throws {
        let provider = try await TestServer.provider()
        let api = AgreementAPI(provider: provider)

        // Data of a 204: empty bytes (it has no body by definition); of an empty 200: an error.
        // Data?: nil.
        #expect(try await api.emptyData() == Data())
        #expect(try await provider.send(EmptyData()) == Data())
        #expect(try await provider.send(Request(.get, "/empty", receiving: .data)) == Data())
        let error = await #expect(throws: CourierError.self) { try await provider.send(Request(.get, "/empty-ok", receiving: .data)) }
        #expect(error?.kind == .decoding)
        #expect(error?.message.contains("empty") == true)
        #expect(try await api.emptyOptionalData() == nil)
        #expect(try await provider.send(EmptyOptionalData()) == nil)

        // String: "".
        #expect(try await api.emptyText() == "")
        #expect(try await provider.send(EmptyText()) == "")
        #expect(try await provider.send(Request(.get, "/empty", receiving: .text)) == "")

        // T?: nil. T: an error.
        #expect(try await api.emptyOptionalUser() == nil)
        #expect(try await provider.send(EmptyOptionalUser()) == nil)
        #expect(try await provider.send(Request(.get, "/empty", receiving: .json(TestUser?.self))) == nil)
        for attempt in [
            { () async throws in _ = try await api.emptyUser() },
            { () async throws in _ = try await provider.send(EmptyUser()) },
            { () async throws in _ = try await provider.send(Request(.get, "/empty", receiving: .json(TestUser.self))) },
        ] {
            let error = await #expect(throws: CourierError.self) { try await attempt() }
            #expect(error?.kind == .decoding)
        }

        // Nothing to read: fine.
        try await api.emptyVoid()
        #expect(try await provider.send(EmptyNothing()) == EmptyResponse())
        try await provider.send(Request(.get, "/empty", receiving: .none))
    }

    @Test("A WebService API reuses one provider and one connection for 100 sequential calls")
    func oneProviderPerAPI() async throws {
        let api = ConnectionAPI(baseURL: try #require(URL(string: "http://127.0.0.1:\(try await TestServer.isolatedPort())")))
        var ports: Set<Int> = []
        for _ in 0..<100 {
            ports.insert(try await api.send(api.get(.json(ConnectionPort.self), from: "/connection")).port)
        }
        #expect(ports.count == 1)
    }

    @Test("A streamed failure carries the first 64 KiB of a large error body", arguments: TransportKind.allCases)
    func streamedFailurePrefix(transport: TransportKind) async throws {
        let provider = try await transport.provider()
        let error = await #expect(throws: CourierError.self) { try await provider.send(Request(.get, "/big-error", receiving: .stream)) }
        #expect(error?.kind == .status)
        #expect(error?.response?.body?.count == 64 * 1024)
    }

    @Test("An interceptor that builds a new request does not turn streaming off", arguments: TransportKind.allCases)
    func interceptorRebuildingRequest(transport: TransportKind) async throws {
        var provider = try await transport.provider().intercept { req, next in
            try await next(RawRequest(head: req.head, body: req.body, baseURL: req.baseURL, operationID: req.operationID))
        }
        provider.responseBodyLimit = 100
        let streamed = try await provider.send(Request(.get, "/bytes/1000", receiving: .stream))
        #expect(try await streamed.collect(upTo: 1000).count == 1000)
    }

    @Test("Interceptors learn that a response streams from the request they receive", arguments: TransportKind.allCases)
    func interceptorsSeeStreaming(transport: TransportKind) async throws {
        let seen = Locked<[Bool]>([])
        let provider = try await transport.provider().intercept { req, next in
            seen.withLock { $0.append(req.streamsResponse) }
            let response = try await next(req)
            #expect(response.body == nil || !req.streamsResponse)
            return response
        }
        let streamed = try await provider.send(Request(.get, "/bytes/1000", receiving: .stream))
        #expect(try await streamed.collect(upTo: 1000) == Pattern.data(count: 1000))
        #expect(try await provider.send(Request(.get, "/bytes/1000", receiving: .data)) == Pattern.data(count: 1000))
        #expect(seen.withLock { $0 } == [true, false])
    }
}
