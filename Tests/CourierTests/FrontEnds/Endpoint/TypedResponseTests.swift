import Courier
import CourierTestSupport
import Foundation
import Testing

struct Item: Codable, Equatable, Sendable {
    var id: Int
    var name: String
}

struct ServerError: Codable, Equatable, Sendable {
    var message: String
    var code: Int
}

@EndpointResponse
struct ItemResponse {
    @ResponseStatusCode var statusCode: Int
    @ResponseBody var body: Item?
    @ResponseErrorBody var errorBody: ServerError?
    @ResponseHeader var contentType: String
    @ResponseHeader(name: "X-Total-Count") var total: Int
    @ResponseHeader var lastModified: Date?
    @ResponseHeader(name: "X-Missing") var missing: String?
    @ResponseCookies var cookies: [Cookie]
}

@Endpoint(.get, "/typed/:status")
struct GetItem {
    typealias Response = ItemResponse
    @PathParameter var status: Int
}

@EndpointResponse
struct CreatedResponse {
    @ResponseBody(status: 201) var created: Item?
    @ResponseBody(status: 200) var existing: Item?
    @ResponseErrorBody(statuses: [404, 410]) var gone: ServerError?
    @ResponseErrorBody(strategy: ServerErrors.self) var serverError: ServerError?
}

enum ServerErrors: ResponseStatusStrategy {
    static func accepts(status: Int) -> Bool { status >= 500 }
}

@Endpoint(.get, "/typed/:status")
struct CreateItem {
    typealias Response = CreatedResponse
    @PathParameter var status: Int
}

/// A paging wrapper reading headers around the response of the page itself.
@EndpointResponse
struct Page<Inner: ResponseDecodable> {
    @ResponseHeader(name: "X-Total-Count") var totalCount: Int
    @ResponseHeader(name: "Link") var link: String?
    @NestedResponse var page: Inner
}

@EndpointResponse
struct PlainItems {
    @ResponseBody var body: Item
}

@Endpoint(.get, "/typed/:status")
struct ListItems {
    typealias Response = Page<PlainItems>
    @PathParameter var status: Int
}

@EndpointResponse
struct StrictHeaders {
    @ResponseHeader(name: "X-Required") var required: String
}

@Endpoint(.get, "/typed/200")
struct NeedsHeader {
    typealias Response = StrictHeaders
}

@EndpointResponse
struct BadlyTypedHeader {
    @ResponseHeader(name: "X-Rate-Remaining") var remaining: Int?
}

@Endpoint(.get, "/typed/200")
struct ReadsRate {
    typealias Response = BadlyTypedHeader
}

@EndpointResponse
struct RangedResponse {
    @ResponseErrorBody(statuses: 400..<500) var clientError: ServerError?
    @ResponseErrorBody(statuses: 500...599) var serverError: ServerError?
}

@Endpoint(.get, "/typed/:status")
struct Ranged {
    typealias Response = RangedResponse
    @PathParameter var status: Int
}

@EndpointResponse
struct MalformedItem {
    @ResponseBody var item: TestUser
}

@Endpoint(.get, "/invalid-json")
struct GetMalformed {
    typealias Response = MalformedItem
}

@Endpoint(.get, "/typed/:status")
struct DecodableOnly {
    typealias Response = Item
    @PathParameter var status: Int
}

@Endpoint(.get, "/typed/:status")
struct Validated {
    typealias Response = Item
    @PathParameter var status: Int

    struct Maintenance: Error {}

    func validate(_ response: Courier.Response) throws {
        if response.headers[HTTPField.Name("X-Total-Count")!] == "42" { throw Maintenance() }
    }
}

@Suite("Typed responses: status, headers, cookies, success and error bodies", .timeLimit(.minutes(2)))
struct TypedResponseTests {
    @Test("A success reads the body, headers (typed, case-insensitive), cookies and status; never the error body")
    func success() async throws {
        let response = try await TestServer.provider().send(GetItem(status: 200))
        #expect(response.statusCode == 200)
        #expect(response.body == Item(id: 200, name: "Ada"))
        #expect(response.errorBody == nil)
        #expect(response.contentType == "application/json")
        #expect(response.total == 42)
        #expect(response.lastModified == Date(timeIntervalSince1970: 1_792_567_680))
        #expect(response.missing == nil)
        #expect(response.cookies.map(\.name) == ["session", "theme"])
        #expect(response.cookies.first?.attributes["HttpOnly"] == "")
        #expect(response.cookies.last?.attributes["Secure"] == "")
        #expect(response.cookies.last?.attributes["Expires"] == "Wed, 21 Oct 2026 07:28:00 GMT")
    }

    @Test("A failure reads the typed error body and never the success body", arguments: [400, 401, 404, 422, 500])
    func failure(status: Int) async throws {
        let response = try await TestServer.provider().send(GetItem(status: status))
        #expect(response.statusCode == status)
        #expect(response.body == nil)
        #expect(response.errorBody == ServerError(message: "failed with \(status)", code: status))
    }

    @Test("204 with an optional body reads as nil")
    func noContent() async throws {
        let response = try await TestServer.provider().send(GetItem(status: 204))
        #expect(response.statusCode == 204)
        #expect(response.body == nil)
        #expect(response.errorBody == nil)
    }

    @Test("Per-status bodies: 201 only, 200 only, a list of statuses, a custom strategy")
    func perStatus() async throws {
        let provider = try await TestServer.provider()
        let created = try await provider.send(CreateItem(status: 201))
        #expect(created.created == Item(id: 201, name: "Ada"))
        #expect(created.existing == nil)
        let existing = try await provider.send(CreateItem(status: 200))
        #expect(existing.created == nil)
        #expect(existing.existing?.id == 200)
        let gone = try await provider.send(CreateItem(status: 410))
        #expect(gone.gone?.code == 410)
        #expect(gone.serverError == nil)
        let broken = try await provider.send(CreateItem(status: 503))
        #expect(broken.serverError?.code == 503)
        #expect(broken.gone == nil)
    }

    @Test("Error bodies by status range")
    func ranges() async throws {
        let provider = try await TestServer.provider()
        let client = try await provider.send(Ranged(status: 422))
        #expect(client.clientError?.code == 422)
        #expect(client.serverError == nil)
        let server = try await provider.send(Ranged(status: 500))
        #expect(server.serverError?.code == 500)
        #expect(server.clientError == nil)
    }

    @Test("A malformed body is an error naming the type and the coding path")
    func malformed() async throws {
        let error = await #expect(throws: CourierError.self) { try await TestServer.provider().send(GetMalformed()) }
        #expect(error?.kind == .decoding)
        #expect(error?.message.contains("TestUser") == true)
        #expect(error?.message.contains("'id'") == true)
    }

    @Test("A nested response reads the page inside a paging wrapper from the same response")
    func nested() async throws {
        let page = try await TestServer.provider().send(ListItems(status: 200))
        #expect(page.totalCount == 42)
        #expect(page.link == #"</typed/200?page=2>; rel="next""#)
        #expect(page.page.body == Item(id: 200, name: "Ada"))
    }

    @Test("A response type without an error body throws a status error carrying the body")
    func noErrorBody() async throws {
        let error = await #expect(throws: CourierError.self) { try await TestServer.provider().send(ListItems(status: 404)) }
        #expect(error?.kind == .status)
        #expect(error?.response?.bodyText?.contains("failed with 404") == true)
    }

    @Test("A missing required header, or one of the wrong type, is an error naming it")
    func headerErrors() async throws {
        let missing = await #expect(throws: CourierError.self) { try await TestServer.provider().send(NeedsHeader()) }
        #expect(missing?.kind == .decoding)
        #expect(missing?.message.contains("'X-Required'") == true)
        let unreadable = await #expect(throws: CourierError.self) { try await TestServer.provider().send(ReadsRate()) }
        #expect(unreadable?.message.contains("'X-Rate-Remaining'") == true)
        #expect(unreadable?.message.contains("not-a-number") == true)
    }

    @Test("A plain Decodable response: decoded on success, a status error (not a parsing error) on 404")
    func decodableOnly() async throws {
        #expect(try await TestServer.provider().send(DecodableOnly(status: 200)) == Item(id: 200, name: "Ada"))
        let error = await #expect(throws: CourierError.self) { try await TestServer.provider().send(DecodableOnly(status: 404)) }
        #expect(error?.kind == .status)
    }

    @Test("Validation hooks: the request's and the provider's run before decoding and keep the thrown error")
    func validation() async throws {
        let error = await #expect(throws: CourierError.self) { try await TestServer.provider().send(Validated(status: 200)) }
        #expect(error?.kind == .validation)
        #expect(error?.underlyingError is Validated.Maintenance)
        #expect(error?.response?.statusCode == 200)

        struct Teapot: Error { let body: String }
        let provider = try await TestServer.provider().validating { response in
            if response.statusCode == 201 { throw Teapot(body: response.bodyText ?? "") }
        }
        let providerError = await #expect(throws: CourierError.self) { try await provider.send(DecodableOnly(status: 201)) }
        #expect(providerError?.kind == .validation)
        #expect((providerError?.underlyingError as? Teapot)?.body.contains("201") == true)
        #expect(try await provider.send(DecodableOnly(status: 200)).id == 200)
    }

    @Test("Completion handler for request structs")
    func completion() async throws {
        let provider = try await TestServer.provider()
        let item = try await withCheckedThrowingContinuation { continuation in
            provider.send(DecodableOnly(status: 200)) { continuation.resume(with: $0) }
        }
        #expect(item.name == "Ada")
    }
}
