// The Courier samples of "Migrating from Papyrus" (Sources/Courier/Courier.docc/MigratingFromPapyrus.md).
// Each region is compared with a block of the article; lines ending in `//-` are glue the article
// does not show. PapyrusSampleRunTests runs them against the test server.
import AsyncHTTPClient
import Courier
import CourierAsyncHTTPClient
import Foundation
import HTTPTypes

// sample: papyrus-quick-start
struct PapyrusBook: Codable, Sendable, Equatable {
    var id: Int
    var title: String
}

struct PapyrusLoan: Codable, Sendable, Equatable {
    var bookID: Int
    var days: Int
}

@API
@Authorization(.bearer("library-token"))
protocol PapyrusLibrary {
    @GET("/books/:id")
    func book(id: Int) async throws -> PapyrusBook

    @POST("/loans")
    func borrow(bookID: Int, days: Int) async throws -> PapyrusLoan

    @GET("/members/:member/loans")
    func loans(member: String) async throws -> [PapyrusLoan]
}

func papyrusQuickStart() async throws { //-
let provider = Provider(baseURL: "https://library.example/api")
let library: any PapyrusLibrary = PapyrusLibraryAPI(provider: provider)
let loans = try await library.loans(member: "ada")
_ = loans //-
} //-
// end sample

// sample: papyrus-transports
func papyrusTransports(client: HTTPClient) { //-
// AsyncHTTPClient on Linux, URLSession on Apple platforms:
let standard = Provider(baseURL: "https://library.example/api")
// URLSession everywhere:
let onURLSession = Provider(baseURL: "https://library.example/api", transport: Provider.urlSessionTransport)
// An HTTPClient of your own (CourierAsyncHTTPClient); you shut it down:
let onYourClient = Provider(baseURL: "https://library.example/api", client: client)
_ = (standard, onURLSession, onYourClient) //-
} //-
// end sample

// sample: papyrus-methods
@API
protocol PapyrusShelves {
    @DELETE("/shelves/:id")
    func remove(id: Int) async throws

    @HTTP("/shelves/:id/cache", method: "PURGE")
    func purge(id: Int) async throws
}
// end sample

// sample: papyrus-paths-queries
@API
protocol PapyrusCatalog {
    @GET("/authors/:author/books/:id")
    func book(author: Path<String>, id: Path<Int>) async throws -> PapyrusBook

    @GET("/authors/:author/books")
    func books(author: String, genre: Query<String?>, page: Int) async throws -> [PapyrusBook]

    @GET("/books?sort=title")
    func sortedBooks() async throws -> [PapyrusBook]

    @GET("/books/:bookId/reviews")
    func reviews(of bookId: Int) async throws -> [String]
}
// end sample

// sample: papyrus-headers
@API
@Headers(["X-Library-Client": "shelf-app/2.1"])
@Authorization(.basic(username: "librarian", password: "s3cret"))
protocol PapyrusBranch {
    @Headers(["Cache-Control": "no-cache"])
    @GET("/branch/hours")
    func hours() async throws -> [String]

    @GET("/branch/visitors")
    func visitors(acceptLanguage: Header<String>) async throws -> Int
}
// end sample

// sample: papyrus-bodies
struct PapyrusReview: Codable, Sendable {
    var stars: Int
    var text: String
}

@API
protocol PapyrusReviews {
    @POST("/books/:id/reviews")
    func post(id: Int, review: Body<PapyrusReview>) async throws

    @PUT("/books/:id/reviews/mine")
    func edit(id: Int, stars: Field<Int>, text: Field<String>) async throws

    @PATCH("/books/:id/reviews/mine")
    func rate(id: Int, stars: Int) async throws

    @URLForm
    @POST("/books/:id/flags")
    func flag(id: Int, reason: String) async throws

    @Multipart
    @POST("/books/:id/scans")
    func upload(id: Int, cover: Part, back: Part) async throws
}

@API
@URLForm
protocol PapyrusReturnsDesk {
    @POST("/desk/returns")
    func returnBook(barcode: String, damaged: Bool) async throws

    @PATCH("/desk/returns/:barcode")
    func correct(barcode: String, damaged: Bool) async throws
}
// end sample

// sample: papyrus-coders
extension JSONEncoder {
    static var papyrusDates: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = .sortedKeys
        return encoder
    }
}

@API
@JSON(encoder: .papyrusDates)
@KeyMapping(.snakeCase)
protocol PapyrusHolds {
    @POST("/holds")
    func place(bookId: Int, pickUpBy: Date) async throws
}
// end sample

// sample: papyrus-responses
@API
protocol PapyrusCovers {
    @GET("/books/:id")
    func book(id: Int) async throws -> PapyrusBook

    @GET("/books/:id/cover")
    func cover(id: Int) async throws -> Data

    @GET("/books/:id/thumbnail")
    func thumbnail(id: Int) async throws -> Data?

    @DELETE("/books/:id/cover")
    func removeCover(id: Int) async throws

    @GET("/books/:id/cover")
    func coverResponse(id: Int) async throws -> Response

    @GET("/books/:id")
    func bookAndResponse(id: Int) async throws -> (PapyrusBook, Response)
}

func papyrusReadResponses(covers: any PapyrusCovers) async throws -> (Int, String) { //-
let response = try await covers.coverResponse(id: 7)
if response.error == nil {
    print("a cover of \(response.body?.count ?? 0) bytes")
}

let (book, bookResponse) = try await covers.bookAndResponse(id: 7)
print(book.title, bookResponse.statusCode!, bookResponse.headers[.contentType] ?? "")
return (bookResponse.statusCode!, book.title) //-
} //-
// end sample

// sample: papyrus-errors
func papyrusHandleErrors(library: any PapyrusLibrary) async -> String? { //-
do {
    let book = try await library.book(id: 404)
    print(book.title)
} catch let error as CourierError {
    print(error.kind, error.request?.path ?? "", error.response?.statusCode ?? 0)
    print(error.response?.bodyText ?? "no response")
    return error.response?.bodyText //-
} catch {
    print(error)
}
return nil //-
} //-
// end sample

// sample: papyrus-modify-requests
func papyrusConfigure(_ provider: Provider) -> Provider { //-
let configured = provider
    .modifyRequests { (req: inout RequestBuilder) in
        req.addHeader("X-Branch", value: "north")
        req.addQuery("lang", value: "en")
    }
    .intercept { req, next in
        let start = ContinuousClock.now
        let res = try await next(req)
        print("\(req.method) \(req.url?.path ?? "") answered \(res.statusCode ?? 0) in \(ContinuousClock.now - start)")
        return res
    }
return configured //-
} //-
// end sample

// sample: papyrus-modifier-types
struct PapyrusBranchModifier: RequestModifier {
    var branch: String

    func modify(req: inout RequestBuilder) throws {
        req.addHeader("X-Branch", value: branch)
    }
}

struct PapyrusTiming: Interceptor {
    func intercept(req: RawRequest, next: Next) async throws -> Response {
        let start = ContinuousClock.now
        defer { print(req.method, req.path, ContinuousClock.now - start) }
        return try await next(req)
    }
}

func papyrusDecoupled() -> Provider { //-
let provider = Provider(
    baseURL: "https://library.example/api",
    modifiers: [PapyrusBranchModifier(branch: "north")],
    interceptors: [PapyrusTiming()]
)
return provider //-
} //-
// end sample

// sample: papyrus-completion-handlers
@API
protocol PapyrusKiosk {
    @GET("/books/:id")
    func book(id: Int, completion: @escaping (Result<PapyrusBook, any Error>) -> Void)

    @POST("/books/:id/checkout")
    func checkOut(id: Int, completion: @escaping (Result<Void, any Error>) -> Void)

    @GET("/kiosk/status")
    func status(completion: @escaping (Response) -> Void)
}
// end sample

// sample: papyrus-handwritten-mock
@API
protocol PapyrusPicks {
    @GET("/members/:member/picks")
    func picks(member: String, acceptLanguage: Header<String>) async throws -> [PapyrusBook]
}

struct PapyrusFixedPicks: PapyrusPicks {
    func picks(member: String, acceptLanguage: String) async throws -> [PapyrusBook] {
        [PapyrusBook(id: 1, title: "Kindred"), PapyrusBook(id: 2, title: "Piranesi")]
    }
}

struct PapyrusReadingList {
    let picks: any PapyrusPicks

    func count(for member: String) async throws -> Int {
        try await picks.picks(member: member, acceptLanguage: "en").count
    }
}

func papyrusHandwrittenMock() async throws -> Int { //-
let list = PapyrusReadingList(picks: PapyrusFixedPicks())
let count = try await list.count(for: "ada")   // 2
return count //-
} //-
// end sample

// sample: papyrus-generated-mock
@API
@Mock
protocol PapyrusWaitlist {
    @GET("/books/:id/waitlist")
    func waitlist(id: Int) async throws -> [String]
}

func papyrusGeneratedMock() async throws -> [String] { //-
let mock = PapyrusWaitlistMock()
mock.mockWaitlist { id in
    id == 12 ? ["ada", "grace"] : []
}
let waiting = try await mock.waitlist(id: 12)   // ["ada", "grace"]
return waiting //-
} //-
// end sample

// sample: papyrus-defect-paths
@API
protocol PapyrusExports {
    @GET("/exports/:name.json")
    func export(name: String) async throws -> Response

    @GET("/shelves/:shelf/books")
    func books(shelf: String) async throws -> [PapyrusBook]
}

func papyrusPathValues(exports: any PapyrusExports) async throws -> CourierError? { //-
// GET /exports/loans%202024%2Fq1.json
_ = try await exports.export(name: "loans 2024/q1")

do {
    _ = try await exports.books(shelf: "..")
} catch let error as CourierError where error.kind == .invalidRequest {
    print(error.message)   // nothing was sent
    return error //-
}
return nil //-
} //-
// end sample

// sample: papyrus-defect-header-names
@API
@Headers(["X-API-Key": "k-123"])
protocol PapyrusTracing {
    @GET("/trace")
    func trace(xRequestID: Header<String>, branch `x-branch-CODE`: Header<String>) async throws -> Response
}
// end sample

// sample: papyrus-defect-mocks
@API
@Mock
protocol PapyrusLookup {
    @GET("/books/:id")
    func find(id: Int) async throws -> PapyrusBook

    @GET("/books/isbn/:isbn")
    func find(isbn: String) async throws -> PapyrusBook

    @GET("/search")
    func search(q: String) async throws -> [PapyrusBook]

    @GET("/search")
    func search(q: Int) async throws -> [PapyrusBook]
}

func papyrusOverloadedMocks() async throws -> [String] { //-
let mock = PapyrusLookupMock()
mock.mockFindId { id in PapyrusBook(id: id, title: "found by id") }
mock.mockFindIsbn { isbn in PapyrusBook(id: 0, title: "found by ISBN \(isbn)") }
mock.mockSearch { (q: String) in [PapyrusBook(id: 1, title: q)] }   // chosen by the closure's type
mock.mockSearchQInt { q in [PapyrusBook(id: q, title: "number \(q)")] }

let byID = try await mock.find(id: 3)
let byISBN = try await mock.find(isbn: "9780441013593")
return [byID.title, byISBN.title] + (try await mock.search(q: "dune")).map(\.title) + (try await mock.search(q: 9)).map(\.title) //-
} //-
// end sample

// sample: papyrus-defect-async-http-client
@API
@Authorization(.bearer("library-token"))
protocol PapyrusInventory {
    @GET("/inventory/:branch")
    func inventory(branch: String, xRequestID: Header<String>) async throws -> Response
}

func papyrusInventory(baseURL: String) async throws -> Response { //-
let response = try await Provider.withHTTPClient(baseURL: baseURL) { provider in
    try await PapyrusInventoryAPI(provider: provider).inventory(branch: "north", xRequestID: "req-7")
}
return response //-
} //-
// end sample

// sample: papyrus-defect-sendable
struct PapyrusMember: Codable, Sendable {
    var id: Int
    var name: String
}

@API
protocol PapyrusMembers {
    @GET("/users/:id")
    func member(id: Int) async throws -> PapyrusMember
}

func papyrusConcurrentMembers(provider: Provider) async throws -> [PapyrusMember] { //-
let members = PapyrusMembersAPI(provider: provider)   // Sendable: shared by the tasks below
let all = try await withThrowingTaskGroup(of: PapyrusMember.self) { group in
    for id in 1...3 {
        group.addTask { try await members.member(id: id) }
    }
    return try await group.reduce(into: []) { $0.append($1) }
}
return all //-
} //-
// end sample
