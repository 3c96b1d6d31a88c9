import Courier
import CourierTestSupport
import Foundation
import Logging
import Testing

/// What the test server saw, and the answer a test gives instead of the echo.
final class EndpointsDesk: Sendable {
    struct Answer: Sendable {
        var status: HTTPResponse.Status = .ok
        var headers: HTTPFields = [.contentType: "application/json"]
        var body: String
    }

    private let seen = Locked<[Echo]>([])
    private let answer: @Sendable (Echo) -> Answer

    init(answer: @escaping @Sendable (Echo) -> Answer) { self.answer = answer }

    var echoes: [Echo] { seen.withLock { $0 } }
    var last: Echo? { echoes.last }

    /// A provider whose requests reach the test server's echo (every path under `/echo`) and whose
    /// answers `answer` writes from what the server saw.
    func provider() async throws -> Provider {
        try await TestServer.provider("/echo").intercept { request, next in
            let response = try await next(request)
            let echo = try JSONDecoder().decode(Echo.self, from: response.body ?? Data())
            self.seen.withLock { $0.append(echo) }
            let reply = self.answer(echo)
            return Response(head: HTTPResponse(status: reply.status, headerFields: reply.headers), body: Data(reply.body.utf8), request: request)
        }
    }
}

/// A log handler that keeps the messages it is given.
struct EndpointsLogSink: LogHandler {
    let lines = Locked<[String]>([])
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        lines.withLock { $0.append(event.message.description) }
    }
}

let endpointsCoverJSON = #"{"title":"Odes","image_url":"https://img.example/odes.jpg"}"#
let endpointsOdes = EndpointsCover(title: "Odes", imageURL: URL(string: "https://img.example/odes.jpg")!)

/// The samples of "Migrating from Endpoints", run against the test server.
@Suite(.timeLimit(.minutes(1)))
struct EndpointsSampleRunTests {
    @Test func basics() async throws {
        let desk = EndpointsDesk { _ in .init(body: endpointsCoverJSON) }
        let (cover, response) = try await endpointsBasics(server: desk.provider())
        #expect(cover == endpointsOdes)
        #expect(response.status == .ok)
        #expect(desk.last?.path == "/echo/covers/random")
        #expect(desk.last?.query == "genre=poetry&key=demo-key")
        #expect(desk.last?.header("accept") == "application/json")
    }

    @Test func parserCatalogue() async throws {
        let desk = EndpointsDesk { echo in
            switch echo.path {
            case "/echo/covers/count": .init(headers: [.contentType: "text/plain"], body: "12\n")
            case "/echo/covers/9": .init(status: .noContent, headers: [:], body: "")
            default: .init(body: endpointsCoverJSON)
            }
        }
        let (bytes, text, object, cover, count) = try await endpointsParsers(provider: desk.provider())
        #expect(bytes == Data(endpointsCoverJSON.utf8))
        #expect(text == endpointsCoverJSON)
        #expect(object["title"] == .string("Odes"))
        #expect(cover == endpointsOdes)
        #expect(count == 12)
        #expect(desk.echoes.map(\.method) == ["GET", "GET", "GET", "GET", "DELETE", "GET"])
    }

    @Test func snakeCaseAndISODates() async throws {
        let desk = EndpointsDesk { _ in .init(body: #"{"file_name":"odes.jpg","uploaded_at":"2024-03-01T10:00:00Z"}"#) }
        let upload = try await endpointsSnakeCase(server: desk.provider())
        #expect(upload == EndpointsUpload(fileName: "odes.jpg", uploadedAt: Date(timeIntervalSince1970: 1_709_287_200)))
    }

    @Test func ownDecoderPerRequest() async throws {
        let desk = EndpointsDesk { _ in .init(body: #"{"fileName":"odes.jpg","uploadedAt":1709287200}"#) }
        let provider = try await desk.provider()
        let expected = EndpointsUpload(fileName: "odes.jpg", uploadedAt: Date(timeIntervalSince1970: 1_709_287_200))
        #expect(try await endpointsEpochDates(provider: provider) == expected)
        #expect(try await provider.send(Request(.get, "/uploads/latest", receiving: .epochUpload)) == expected)
    }

    @Test func dedicatedCalls() async throws {
        let desk = EndpointsDesk { _ in .init(body: endpointsCoverJSON) }
        let provider = try await desk.provider()
        let object = try await provider.send(EndpointsRandomCoverObject(genre: "essays"))
        #expect(object["image_url"] == .string("https://img.example/odes.jpg"))
        #expect(desk.last?.query == "genre=essays")
        #expect(try await endpointsTypeSafe(provider: provider) == endpointsOdes)
        #expect(desk.last?.query == "genre=poetry")
    }

    @Test func dedicatedClient() async throws {
        let desk = EndpointsDesk { echo in
            echo.query?.contains("genre=poetry") == true
                ? .init(status: .forbidden, body: #"{"code":"quota","message":"daily quota used up"}"#)
                : .init(body: endpointsCoverJSON)
        }
        let provider = endpointsShelfProvider(server: try await desk.provider(), apiKey: "k-42")
        #expect(try await provider.send(EndpointsRandomCover(genre: "essays")) == endpointsOdes)
        #expect(desk.last?.query == "genre=essays&api_key=k-42")
        let problem = await endpointsReadProblem(provider: provider)
        #expect(problem == EndpointsShelfProblem(code: "quota", message: "daily quota used up"))
        let error = await #expect(throws: CourierError.self) { try await provider.send(EndpointsRandomCover(genre: "poetry")) }
        #expect(error?.kind == .validation)
        #expect(error?.response?.status == .forbidden)
    }

    @Test func curlLogging() async throws {
        let desk = EndpointsDesk { _ in .init(body: endpointsCoverJSON) }
        let sink = EndpointsLogSink()
        let logger = Logger(label: "covers.http") { _ in sink }
        #expect(try await endpointsDebugging(server: desk.provider(), logger: logger) == endpointsOdes)
        let lines = sink.lines.withLock { $0 }
        #expect(lines.count == 1)
        #expect(lines.first?.hasPrefix("curl ") == true)
        #expect(lines.first?.contains("/echo/covers/random?genre=poetry") == true)

        let both = EndpointsLogSink()
        let responses = endpointsResponseLogging(server: try await desk.provider(), logger: Logger(label: "covers.http") { _ in both })
        _ = try await responses.send(EndpointsRandomCover(genre: "poetry"))
        let logged = both.lines.withLock { $0 }
        #expect(logged.count == 2)
        // The inner interceptor logs the response before the outer CURLLogger logs the command.
        #expect(logged.first?.hasPrefix("200 ") == true)
        #expect(logged.first?.contains("/covers/random") == true)
        #expect(logged.last?.hasPrefix("curl ") == true)
    }

    @Test func bodies() async throws {
        let desk = EndpointsDesk { _ in .init(headers: [:], body: "") }
        try await endpointsBodies(provider: desk.provider(), artwork: Data([0xFF, 0xD8, 0xFF]))
        let seen = desk.echoes
        #expect(seen.count == 3)
        #expect(seen[0].header("content-type") == "application/json")
        #expect(seen[0].bodyText == #"{"genre":"poetry","title":"Odes"}"#)
        #expect(seen[1].header("content-type") == "application/x-www-form-urlencoded")
        #expect(seen[1].bodyText == "username=ada&password=s3cret")
        #expect(seen[2].header("content-type")?.hasPrefix("multipart/form-data; boundary=") == true)
        #expect(seen[2].bodyText.contains(#"name="artwork"; filename="odes.jpg""#))

        _ = try await desk.provider().send(EndpointsSignIn(username: "ada", password: "s3cret"))
        #expect(desk.last?.bodyText == "username=ada&password=s3cret")
    }

    @Test func callAndProviderValidation() async throws {
        let desk = EndpointsDesk { echo in
            switch echo.path {
            case "/echo/covers/1/artwork": .init(headers: [HTTPField.Name("X-Checksum")!: "abc"], body: "art")
            case "/echo/covers/2/artwork": .init(headers: [:], body: "art")
            default: .init(status: .serviceUnavailable, headers: [:], body: "")
            }
        }
        let provider = endpointsValidatingProvider(server: try await desk.provider())
        #expect(try await provider.send(EndpointsArtwork(id: 1)) == Data("art".utf8))
        let missing = await #expect(throws: CourierError.self) { try await provider.send(EndpointsArtwork(id: 2)) }
        #expect(missing?.kind == .validation)
        #expect(missing?.underlyingError is EndpointsMissingChecksum)
        let down = await #expect(throws: CourierError.self) { try await provider.send(EndpointsArtwork(id: 3)) }
        #expect(down?.kind == .validation)
        #expect(down?.underlyingError is EndpointsMaintenance)
    }

    @Test func errorsCarryTheResponse() async throws {
        let desk = EndpointsDesk { _ in .init(status: .notFound, body: #"{"code":"gone","message":"no such cover"}"#) }
        let error = await endpointsErrors(provider: try await desk.provider())
        #expect(error?.kind == .status)
        #expect(error?.response?.status == .notFound)
        #expect(error?.response?.bodyText == #"{"code":"gone","message":"no such cover"}"#)
    }

    @Test func basePathKeepsItsLastSegment() async throws {
        #expect(try await endpointsBasePath() == "/api/v2/covers/random?genre=poetry")
        for base in ["/api/v1", "/api/v1/"] {
            let provider = try await TestServer.provider(base)
            for path in ["/echo/covers", "echo/covers"] {
                let seen = try await provider.send(Request(.get, path, receiving: .json(Echo.self)))
                #expect(seen.path == "/api/v1/echo/covers")
            }
        }
    }

    @Test func errorBodiesAreKept() async throws {
        let desk = EndpointsDesk { echo in
            echo.path == "/echo/covers/1"
                ? .init(body: endpointsCoverJSON)
                : .init(status: .notFound, body: #"{"code":"gone","message":"no such cover"}"#)
        }
        let provider = try await desk.provider()
        let result = try await endpointsCoverByID(provider: provider)
        #expect(result.status == 404)
        #expect(result.cover == nil)
        #expect(result.problem == EndpointsShelfProblem(code: "gone", message: "no such cover"))
        let found = try await provider.send(EndpointsCoverByID(id: 1))
        #expect(found.cover == endpointsOdes)
        #expect(found.problem == nil)
        #expect(await endpointsUntypedErrorBody(provider: provider) == "no such cover")
    }
}
