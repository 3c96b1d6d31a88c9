// The Courier samples of "Migrating from Endpoints" (Sources/Courier/Courier.docc/MigratingFromEndpoints.md).
// Each region is compared with a block of the article; lines ending in `//-` are glue the article
// does not show. Where a sample makes its own provider, a hidden local `Provider(baseURL:…)`
// function hands it the test's provider instead. EndpointsSampleRunTests runs them.
import Courier
import Foundation
import Logging

// sample: endpoints-response-type
struct EndpointsCover: Decodable, Sendable, Equatable {
    var title: String
    var imageURL: URL

    enum CodingKeys: String, CodingKey {
        case title
        case imageURL = "image_url"
    }
}
// end sample

// sample: endpoints-basics
func endpointsBasics(server: Courier.Provider) async throws -> (EndpointsCover, Response) { //-
func Provider(baseURL: String) -> Courier.Provider { server } //-
// The provider plays the client's part: base URL, coders, modifiers, validation.
let provider = Provider(baseURL: "https://covers.example/v2")

// A request and the decoder that reads its response: what a call is.
let randomCover = Request(.get, "/covers/random", receiving: .withResponse(.json(EndpointsCover.self)))
    .query(["genre": "poetry", "key": "demo-key"])

// Sending it gives the decoded body and the response it came from.
let (cover, response) = try await provider.send(randomCover)
return (cover, response) //-
} //-
// end sample

// sample: endpoints-parsers
func endpointsParsers(provider: Provider) async throws -> (Data, String, [String: JSONValue], EndpointsCover, Int) { //-
let random = RequestBuilder(method: .get, path: "/covers/random")
let bytes = try await provider.send(random, parser: .data)
let text = try await provider.send(random, parser: .text)
let object = try await provider.send(random, parser: .json([String: JSONValue].self))
let cover = try await provider.send(random, parser: .json(EndpointsCover.self))
try await provider.send(RequestBuilder(method: .delete, path: "/covers/9"), parser: .none)
let count = try await provider.send(RequestBuilder(method: .get, path: "/covers/count"), parser: .value(Int.self))
return (bytes, text, object, cover, count) //-
} //-
// end sample

// sample: endpoints-json-defaults
struct EndpointsUpload: Decodable, Sendable, Equatable {
    var fileName: String      // file_name
    var uploadedAt: Date      // uploaded_at, ISO 8601
}

func endpointsSnakeCase(server: Courier.Provider) async throws -> EndpointsUpload { //-
func Provider(baseURL: String, keyMapping: KeyMapping, decoder: JSONDecoder) -> Courier.Provider { //-
    var provider = server; provider.keyMapping = keyMapping; provider.bodyDecoder = decoder; return provider //-
} //-
let iso8601 = JSONDecoder()
iso8601.dateDecodingStrategy = .iso8601
let provider = Provider(baseURL: "https://covers.example/v2", keyMapping: .snakeCase, decoder: iso8601)

let upload = try await provider.send(Request(.get, "/uploads/latest", receiving: .json(EndpointsUpload.self)))
return upload //-
} //-
// end sample

// sample: endpoints-custom-parser
func endpointsEpochDates(provider: Provider) async throws -> EndpointsUpload { //-
let epoch = JSONDecoder()
epoch.dateDecodingStrategy = .secondsSince1970

let upload = try await provider.send(
    Request(.get, "/uploads/latest", receiving: .json(EndpointsUpload.self, decoder: epoch))
)
return upload //-
} //-
// end sample

// sample: endpoints-custom-parser-static
extension ResponseDecoder where Value == EndpointsUpload {
    static var epochUpload: ResponseDecoder<EndpointsUpload> {
        let epoch = JSONDecoder()
        epoch.dateDecodingStrategy = .secondsSince1970
        return .json(EndpointsUpload.self, decoder: epoch)
    }
}
// end sample

// sample: endpoints-call
struct EndpointsRandomCoverObject: Endpoint {
    typealias Response = [String: JSONValue]
    static var responseDecoder: ResponseDecoder<[String: JSONValue]> { .json([String: JSONValue].self) }

    var genre: String

    func makeRequest() -> RequestBuilder {
        var request = RequestBuilder(method: .get, path: "/covers/random")
        request.addQuery("genre", value: genre)
        return request
    }
}
// end sample

// sample: endpoints-call-macro
@Endpoint(.get, "/covers/random")
struct EndpointsRandomCover {
    typealias Response = EndpointsCover
    @QueryItem var genre: String
}

func endpointsTypeSafe(provider: Provider) async throws -> EndpointsCover { //-
let cover = try await provider.send(EndpointsRandomCover(genre: "poetry"))
print("cover art:", cover.imageURL)
return cover //-
} //-
// end sample

// sample: endpoints-client
struct EndpointsShelfProblem: Decodable, Sendable, Error, Equatable {
    var code: String
    var message: String
}

func endpointsShelfProvider(server: Courier.Provider, apiKey: String) -> Courier.Provider { //-
func Provider(baseURL: String) -> Courier.Provider { server } //-
let provider = Provider(baseURL: "https://covers.example/v2")
    .modifyRequests { request in
        request.addQuery("api_key", value: apiKey)   // on every request
    }
    .validating { response in
        // A refusal with the server's own explanation fails with that explanation.
        guard !response.isSuccess, let body = response.body,
            let problem = try? JSONDecoder().decode(EndpointsShelfProblem.self, from: body)
        else { return }
        throw problem
    }
return provider //-
} //-
// end sample

// sample: endpoints-client-errors
func endpointsReadProblem(provider: Provider) async -> EndpointsShelfProblem? { //-
do {
    _ = try await provider.send(EndpointsRandomCover(genre: "poetry"))
} catch {   // every failure is a CourierError
    if let problem = error.underlyingError as? EndpointsShelfProblem {
        print(error.response?.status.code ?? 0, problem.code, problem.message)
        return problem //-
    }
}
return nil //-
} //-
// end sample

// sample: endpoints-debug
func endpointsDebugging(server: Courier.Provider, logger: Logger) async throws -> EndpointsCover { //-
func Provider(baseURL: String) -> Courier.Provider { server } //-
// `logger` is any swift-log Logger, such as Logger(label: "covers.http").
let provider = Provider(baseURL: "https://covers.example/v2")
    .intercept(CURLLogger(when: .always, logger: logger, level: .info))

let cover = try await provider.send(EndpointsRandomCover(genre: "poetry"))
return cover //-
} //-
// end sample

// sample: endpoints-debug-response
func endpointsResponseLogging(server: Courier.Provider, logger: Logger) -> Courier.Provider { //-
func Provider(baseURL: String) -> Courier.Provider { server } //-
let provider = Provider(baseURL: "https://covers.example/v2")
    .intercept(CURLLogger(when: .always, logger: logger, level: .info))
    .intercept { request, next in
        let response = try await next(request)
        logger.info("\(response)", metadata: [
            "headers": "\(response.headers.map { "\($0.name): \($0.value)" })",
            "body": "\(response.bodyText?.prefix(2_000) ?? "")",
        ])
        return response
    }
return provider //-
} //-
// end sample

// sample: endpoints-bodies
struct EndpointsNewCover: Encodable, Sendable {
    var title: String
    var genre: String
}

struct EndpointsLogin: Encodable, Sendable {
    var username: String
    var password: String
}

func endpointsBodies(provider: Provider, artwork: Data) async throws { //-
// JSON
let create = Request(.post, "/covers", receiving: .none)
    .body(.json(EndpointsNewCover(title: "Odes", genre: "poetry")))

// application/x-www-form-urlencoded
let login = Request(.post, "/login", receiving: .none)
    .body(.form(EndpointsLogin(username: "ada", password: "s3cret")))

// multipart/form-data
let upload = Request(.post, "/uploads", receiving: .none)
    .body(.multipart(MultipartForm([
        ("artwork", Part(data: artwork, fileName: "odes.jpg", mimeType: "image/jpeg")),
        ("title", Part(text: "Odes")),
    ])))

for request in [create, login, upload] { try await provider.send(request) }
} //-
// end sample

// sample: endpoints-body-struct
@URLForm
@Endpoint(.post, "/login")
struct EndpointsSignIn {
    typealias Response = EmptyResponse
    @BodyField var username: String
    @BodyField var password: String
}
// end sample

// sample: endpoints-validation
struct EndpointsMissingChecksum: Error {}
struct EndpointsMaintenance: Error {}

@Endpoint(.get, "/covers/{id}/artwork")
struct EndpointsArtwork {
    typealias Response = Data
    @PathParameter var id: Int

    // This call only: the artwork must come with its checksum.
    func validate(_ response: Courier.Response) throws {
        guard response.headers[HTTPField.Name("X-Checksum")!] != nil else { throw EndpointsMissingChecksum() }
    }
}

func endpointsValidatingProvider(server: Courier.Provider) -> Courier.Provider { //-
func Provider(baseURL: String) -> Courier.Provider { server } //-
// Every call: a 503 means the shelf is down for maintenance.
let provider = Provider(baseURL: "https://covers.example/v2")
    .validating { response in
        if response.status == .serviceUnavailable { throw EndpointsMaintenance() }
    }
return provider //-
} //-
// end sample

// sample: endpoints-errors
func endpointsErrors(provider: Provider) async -> CourierError? { //-
do {
    let (cover, response) = try await provider.send(EndpointsRandomCover(genre: "poetry"), parser: .withResponse(.json(EndpointsCover.self)))
    print(cover.title, response.status)
} catch {   // every failure is a CourierError
    print("failed:", error.kind, error.message)
    if let cause = error.underlyingError { print("because:", cause) }
    if let response = error.response {
        print("status:", response.status.code, "body:", response.bodyText ?? "")
    }
    return error //-
}
return nil //-
} //-
// end sample

// sample: endpoints-base-path
func endpointsBasePath() async throws -> String? { //-
let provider = Provider(baseURL: "https://shelf.example/api/v2")   // no trailing slash
let (head, _) = try await provider.httpRequest(for: Request(EndpointsRandomCover(genre: "poetry")))
print(head.path ?? "")   // /api/v2/covers/random?genre=poetry
return head.path //-
} //-
// end sample

// sample: endpoints-error-body
@EndpointResponse
struct EndpointsCoverResult {
    @ResponseStatusCode var status: Int
    @ResponseBody var cover: EndpointsCover?                 // 2xx and 3xx
    @ResponseErrorBody var problem: EndpointsShelfProblem?   // 4xx and 5xx
}

@Endpoint(.get, "/covers/{id}")
struct EndpointsCoverByID {
    typealias Response = EndpointsCoverResult
    @PathParameter var id: Int
}

func endpointsCoverByID(provider: Provider) async throws -> EndpointsCoverResult { //-
let result = try await provider.send(EndpointsCoverByID(id: 404))
if let problem = result.problem {
    print(result.status, problem.code, problem.message)
}
return result //-
} //-
// end sample

// sample: endpoints-error-body-untyped
func endpointsUntypedErrorBody(provider: Provider) async -> String? { //-
do {
    _ = try await provider.send(EndpointsRandomCover(genre: "poetry"))
} catch where error.kind == .status {
    let body = error.response?.body ?? Data()   // the bytes as they arrived
    if let problem = try? JSONDecoder().decode(EndpointsShelfProblem.self, from: body) {
        print(error.response?.status.code ?? 0, problem.message)
        return problem.message //-
    }
} catch {
    print("failed:", error.message)
}
return nil //-
} //-
// end sample
