// The samples of README.md, compiled; `ReadmeSampleRunTests` runs those that talk to a server.
// A line ending in `//-` is compiled but not shown on the page (see `SampleCheckTests`).
import Courier
import CourierTesting
import Foundation
import HTTPTypes
import Logging
import OpenAPIRuntime

// sample: quick-start
import Courier

struct User: Codable, Sendable { var id: Int; var name: String }
struct Todo: Codable, Sendable { var title: String; var done: Bool }

@API
protocol Users {
    @GET("/users/:id")
    func user(id: Int) async throws -> User

    @GET("/users/:id/todos")
    func todos(id: Int, done: Bool?, tags: [String]) async throws -> [Todo]   // query: ?done=…&tags=…

    @POST("/users")
    func create(name: String, email: String) async throws -> User             // JSON fields

    @URLForm
    @POST("/login")
    func login(username: String, password: String) async throws               // form body

    @PUT("/users/:id/avatar")
    func setAvatar(id: Int, avatar: Body<Data>) async throws -> Response      // raw response
}

/// Runs the quick start against `server`: the local `Provider` below stands in for the type. //-
func quickStart(server: String) async throws -> String? { //-
    var printed: String? //-
    func Provider(baseURL: String, keyMapping: KeyMapping) -> Courier.Provider { Courier.Provider(baseURL: server, keyMapping: keyMapping) } //-
    func print(_ items: Any...) { printed = items.map { "\($0)" }.joined(separator: " ") } //-
let provider = Provider(baseURL: "https://api.example.com/v1", keyMapping: .snakeCase)
let users: any Users = UsersAPI(provider: provider)

do {
    let user = try await users.user(id: 42)
    print(user.name)
} catch let error as CourierError where error.kind == .status {
    print("HTTP \(error.response?.statusCode ?? 0):", error.response?.bodyText ?? "")
}
    return printed //-
} //-
// end sample

// sample: mocks
struct Repository: Codable, Sendable { var name: String } //-
@API @Mock
protocol Catalogue {
    @GET("/authors/:author/books")
    func books(author: String) async throws -> [Book]
}

func mockedCatalogue() -> CatalogueMock { //-
let mock = CatalogueMock()
mock.mockBooks { author in [Book(id: 1, title: "Dune", author: author)] }
return mock //-
} //-
// end sample

// sample: curl-logger
func curlLoggingProvider() -> Provider { //-
let provider = Provider(baseURL: "https://api.example.com")
    .intercept(CURLLogger(when: .onError, logger: Logger(label: "api"), secrets: [HTTPField.Name("X-API-Key")!]))
return provider //-
} //-
// end sample

struct Profile: Codable, Sendable { var name: String } //-
struct ProfileChanges: Codable, Sendable { var name: String } //-
struct APIError: Codable, Sendable { var message: String } //-
// sample: request-struct
@Endpoint(.post, "/profiles/{user_id}")
struct UpdateProfile {
    typealias Response = ProfileResponse
    @PathParameter(name: "user_id") var userID: String
    @QueryItem var notify: Bool?                 // nil is left out
    @QueryFlag var dryRun: Bool                  // ?dryRun when true, absent when false
    @QueryItems var extra: [String: String]?
    @RequestHeader var requestID: String?        // Request-ID
    @RequestHeaders var more: [String: String]?
    @RequestCookies var cookies: [Cookie]
    @RequestBody var body: ProfileChanges        // JSON; .urlForm, .xml, String (text), Data, MultipartForm
}

@EndpointResponse
struct ProfileResponse {
    @ResponseStatusCode var status: Int
    @ResponseBody(status: 200) var profile: Profile?     // on 200
    @ResponseBody(status: 201) var created: Profile?     // on 201: one response fills one body
    @ResponseErrorBody var error: APIError?              // 4xx/5xx
    @ResponseHeader(name: "X-Total-Count") var total: Int   // required: missing fails, naming it
    @ResponseHeader var lastModified: Date?              // Last-Modified, optional
    @ResponseCookies var cookies: [Cookie]
}

func updateProfile(provider: Provider, changes: ProfileChanges) async throws -> ProfileResponse { //-
let response = try await provider.send(UpdateProfile(userID: "ada", notify: nil, dryRun: false, extra: nil,
                                                     requestID: nil, more: nil, cookies: [], body: changes))
return response //-
} //-
// end sample

struct UserChanges: Codable, Sendable { var name: String } //-
// sample: fluent-builder
enum ShelfAPI: WebService {
    case staging, live
    var baseURL: URL { URL(string: self == .live ? "https://books.example.com" : "https://staging.books.example.com")! }

    // Optional: parts every request of this API starts with.
    func request<T>(_ method: HTTPRequest.Method, _ path: String, receiving decoder: ResponseDecoder<T>) -> Request<T> {
        Request(method, path, receiving: decoder).header(.shelfKey, "reader-app")
    }
}

extension HTTPField.Name { static let shelfKey = HTTPField.Name("X-Shelf-Key")! }

func fluentTour(changes: UserChanges, etag: String, token: String, handle: (HTTPBody.ByteChunk) -> Void) async throws { //-
let api = ShelfAPI.staging
let user = try await api.send(api.get(.json(User.self), from: "/users/:id").parameter("id", 42))

let update = api.patch("/users/:id", with: .json(changes))
    .parameter("id", 42)
    .query("notify", true)
    .header(.ifMatch, etag)
    .credentials(.bearer(token))
    .timeout(.seconds(10))
    .receiving(.json(User.self))          // keeps the authentication and the timeout
let updated = try await api.send(update)

let (head, body) = try await api.provider.httpRequest(for: update)   // built, not sent: scheme, host, full path
let urlRequest = try await api.provider.urlRequest(for: update)      // for your own stack

let export = try await api.send(api.get(.stream, from: "/exports/7").credentials(.bearer(token)))
for try await chunk in export.body { handle(chunk) }
_ = (user, updated, head, body, urlRequest) //-
} //-
// end sample

struct FileInfo: Codable, Sendable { var name: String } //-
// sample: request-builder
func filesByBuilder(provider: Provider) async throws -> FileInfo { //-
var request = RequestBuilder(method: .get, path: "/files/:name.json", operationID: "Files.get")
request.addParameter("name", value: "report")
request.addQuery("version", value: 3)
request.addHeader("X-Request-ID", value: UUID())
let file = try await provider.send(Request(request, receiving: .json(FileInfo.self)))
return file //-
} //-
// end sample

struct Order: Codable, Sendable { var id: Int } //-
struct NewOrder: Codable, Sendable { var item: String } //-
// sample: retries
func placeOrder(_ newOrder: NewOrder) async throws -> Order { //-
var provider = Provider(baseURL: "https://api.example.com")
provider.retryPolicy = .standard                      // 3 attempts
let order = try await provider.send(
    Request(.post, "/orders", receiving: .json(Order.self))
        .body(.json(newOrder))
        .retry(RetryPolicy(addsIdempotencyKey: true))  // safe to retry for a server honouring the key
)
return order //-
} //-
// end sample

struct Token: Sendable { var access: String; var expiry: Date } //-
struct SignIn: Sendable { func refresh(_ token: Token?) async throws -> Token { Token(access: "new", expiry: .now + 3600) } } //-
// sample: authenticator
func authenticatedProvider(stored: Token, signIn: SignIn) -> Provider { //-
let tokens = Authenticator<Token>(
    credential: stored,
    apply: { token, request in request.headers[.authorization] = "Bearer \(token.access)" },
    refresh: { old in try await signIn.refresh(old) },
    requiresRefresh: { token in token.expiry < .now.addingTimeInterval(30) }
)
let provider = Provider(baseURL: "https://api.example.com").authenticated(with: tokens)
return provider //-
} //-
// end sample

// sample: observability
func observedProvider() -> Provider { //-
var provider = Provider(baseURL: "https://api.example.com")
provider.observability.logger = Logger(label: "api")
provider.observability.queryValues = .only(["page"])      // other query values stay redacted
// In tests, without bootstrapping: Observability(tracer: InMemoryTracer(), metricsFactory: TestMetrics())
return provider //-
} //-
// end sample

struct Receipt: Codable, Sendable { var id: Int } //-
// sample: streaming
@API
protocol Transfers {
    // Upload a file without reading it into memory, or any AsyncSequence of bytes:
    @POST("/uploads")
    func upload(data: Body<HTTPBody>) async throws -> Receipt

    // Read a response as it arrives:
    @GET("/exports/:id")
    func export(id: Int) async throws -> StreamedResponse
}

func transfer(provider: Provider, url: URL, fileURL: URL, handle: (HTTPBody.ByteChunk) -> Void) async throws -> Receipt { //-
let api = TransfersAPI(provider: provider)
let receipt = try await api.upload(data: .file(url))
for try await chunk in try await api.export(id: 7).body { handle(chunk) }
// …or write it straight to a file:
try await provider.download(Request(.get, "/exports/7", receiving: .stream), to: fileURL)
return receipt //-
} //-
// end sample

struct Prompt: Codable, Sendable { var text: String } //-
struct Delta: Codable, Sendable { var text: String } //-
struct Row: Codable, Sendable { var id: Int } //-
// sample: typed-streams
@API
protocol Assistant {
    @POST("/v1/chat")
    func chat(body: Body<Prompt>) async throws -> ServerSentEvents<Delta>   // text/event-stream
    @GET("/v1/exports/:id")
    func rows(id: Int) async throws -> JSONLines<Row>                       // application/jsonl
}

func chat(assistant: any Assistant, prompt: Prompt) async throws -> Request<ServerSentEvents<Delta>> { //-
for try await delta in try await assistant.chat(body: prompt) { print(delta.text, terminator: "") }

let done = Request(.post, "/v1/chat", receiving: .events(Delta.self, terminator: "[DONE]"))
return done //-
} //-
// end sample

final class ProgressBar: @unchecked Sendable { var value = 0.0 } //-
// sample: progress
func progressTour(provider: Provider, url: URL, bar: ProgressBar) async throws -> Data { //-
let upload = try TransfersAPI.Requests.upload(data: .file(url)).uploadProgress { progress in
    print(progress.bytes, progress.total ?? -1, progress.fraction ?? 0)
}
let (download, progress) = Request(.get, "/exports/7", receiving: .data).downloadProgress()
async let data = provider.send(download)
for await step in progress { bar.value = step.fraction ?? 0 }
_ = upload //-
return try await data //-
} //-
// end sample

struct IssuePage: Codable, Sendable { var issues: [TrackedIssue]; var nextCursor: String? } //-
@API //-
protocol Repos { //-
    @GET("/orgs/:org/repos") //-
    func list(org: String) async throws -> [Repository] //-
} //-
// sample: pagination
func pagesTour(provider: Provider) async throws -> Pages<IssuePage> { //-
for try await repo in provider.pages(ReposAPI.Requests.list(org: "swift"), limit: 20).items(\.self) { print(repo.name) }

let issues = provider.pages(Request(.get, "/issues", receiving: .json(IssuePage.self))) { context in
    context.page.nextCursor.map { .query("cursor", $0) }   // or .url(…), or .modify { … }
}
return issues //-
} //-
// end sample

// sample: mock-transport
import CourierTesting

func mockTransportSample() async throws -> MockTransport { //-
let mock = MockTransport()
mock.stub(.get, "/users/:id") { request in
    try .json(User(id: Int(request.parameters["id"] ?? "") ?? 0, name: "Ada"))
}
let users = UsersAPI(provider: Provider(baseURL: "https://api.test", transport: mock))
_ = try await users.user(id: 7)
assert(mock.requests.first?.path == "/users/7")
return mock //-
} //-
// end sample
