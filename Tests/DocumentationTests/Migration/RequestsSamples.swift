// The Courier samples of "Migrating from Requests" (Sources/Courier/Courier.docc/MigratingFromRequests.md).
// Each region is compared with a block of the article; lines ending in `//-` are glue the article
// does not show. RequestsSampleRunTests runs them against the test server.
import Courier
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// sample: requests-api
enum RequestsShelf: WebService {
    case staging
    case production
    case local(URL) //-

    var baseURL: URL {
        switch self {
        case .staging: URL(string: "https://staging.shelf.example/api")!
        case .production: URL(string: "https://shelf.example/api")!
        case .local(let url): url //-
        }
    }
}
// end sample

// sample: requests-get
struct RequestsMember: Codable, Sendable, Equatable {
    var id: Int
    var name: String
}

func requestsFetchMember(shelf: RequestsShelf) async throws -> RequestsMember { //-
let fetchMember = shelf.get(.json(RequestsMember.self), from: "/users/:id").parameter("id", 7)
do {
    let member = try await shelf.send(fetchMember)
    print(member.name)
    return member //-
} catch where error.response != nil {   // the error is a CourierError
    print("the server answered \(error.response!.status):", error.message)
    throw error //-
} catch {
    print("no answer:", error.message)
    throw error //-
}
} //-
// end sample

// sample: requests-perform
func requestsPerform(shelf: RequestsShelf, done: @escaping @Sendable (Int?) -> Void) { //-
let fetchMember = shelf.get(.withResponse(.json(RequestsMember.self)), from: "/users/:id").parameter("id", 7)
shelf.provider.send(fetchMember) { result in
    switch result {
    case .success(let (member, response)):
        print(response.status, member.name)
        done(response.status.code) //-
    case .failure(let error) where error.response != nil:
        print("the server answered \(error.response!.status):", error.message)
        done(error.response?.status.code) //-
    case .failure(let error):
        print("no answer:", error)
        done(nil) //-
    }
}
} //-
// end sample

// sample: requests-post
struct RequestsBook: Codable, Sendable {
    var title: String
    var author: String
}

func requestsDonate(shelf: RequestsShelf, book: RequestsBook) async throws -> Request<Void> { //-
let donate = shelf.post(.json(book), to: "/books")
try await shelf.send(donate)
return donate //-
} //-
// end sample

// sample: requests-auth
func requestsAuthenticated(shelf: RequestsShelf, token: String, password: String) -> (Request<Void>, Request<Void>) { //-
let renew = shelf.patch("/loans/:id", with: .json(["days": 14]))
    .parameter("id", 31)
    .credentials(.bearer(token))

let audit = shelf.get("/audit")
    .credentials(.basic(username: "librarian", password: password))
return (renew, audit) //-
} //-
// end sample

// sample: requests-headers
func requestsHeaders(shelf: RequestsShelf) -> Request<String> { //-
let blurb = shelf.get(.text, from: "/books/:id/blurb")
    .parameter("id", 12)
    .headers([.acceptLanguage: "fr", .accept: "text/plain"])   // replaces every header
    .addingHeader(.acceptLanguage, "en;q=0.5")                  // adds a value beside the others
    .header(.cacheControl, "no-cache")                          // sets one name, replacing its values
    .removingHeader(.cacheControl)                              // removes every value of one name
return blurb //-
} //-
// end sample

// sample: requests-query
func requestsSearch(shelf: RequestsShelf) -> Request<[RequestsBook]> { //-
let search = shelf.get(.json([RequestsBook].self), from: "/books/search")
    .query(["q": "dune", "limit": "30"])   // added in this order, exactly as written
    .query("available", true)               // any Encodable value
return search //-
} //-
// end sample

// sample: requests-field-name
extension HTTPField.Name {
    static let shelfAppKey = HTTPField.Name("X-Shelf-App-Key")!
}

func requestsWithAppKey(shelf: RequestsShelf) -> Request<Void> { //-
let ping = shelf.get("/ping").header(.shelfAppKey, "reading-room")
return ping //-
} //-
// end sample

// sample: requests-base-request
struct RequestsPartnerShelf: WebService {
    let baseURL: URL
    let appKey: String
    let token: String

    func request<T>(_ method: HTTPRequest.Method, _ path: String, receiving decoder: ResponseDecoder<T>) -> Request<T> {
        Request(method, path, receiving: decoder)
            .header(.shelfAppKey, appKey)
            .credentials(.bearer(token))
    }
}
// end sample

// sample: requests-decoder
extension ResponseDecoder where Value == [String] {
    /// One ISBN per line of a plain-text body.
    static var isbnLines: ResponseDecoder<[String]> {
        .custom(accept: "text/plain") { _, _, body in
            String(decoding: body ?? Data(), as: UTF8.self)
                .split(whereSeparator: \.isNewline)
                .map(String.init)
        }
    }
}

func requestsDecoders(shelf: RequestsShelf) -> (Request<[String]>, Request<String>, Request<String>) { //-
let isbns = shelf.get(.isbnLines, from: "/books/isbns")
let preface = shelf.get(.text(encoding: .ascii), from: "/books/12/preface")
let notes = shelf.get(.text, from: "/books/12/notes")   // in the charset the response names, UTF-8 if none
return (isbns, preface, notes) //-
} //-
// end sample

// sample: requests-auth-provider
extension Credentials {
    static func shelfSignature(_ key: String) -> Credentials {
        Credentials { request in
            request.setAuthorization(.custom("Shelf \(key)"))
        }
    }
}
// end sample

// sample: requests-body-provider
struct RequestsRaggedRows: Error {}

extension BodyContent {
    static func csv(_ rows: [[String]]) -> BodyContent {
        BodyContent { request in
            guard rows.allSatisfy({ $0.count == rows.first?.count }) else { throw RequestsRaggedRows() }
            let text = rows.map { $0.joined(separator: ",") }.joined(separator: "\n")
            request.setBody(.text(text, contentType: "text/csv"))
        }
    }
}

func requestsImport(shelf: RequestsShelf, scan: URL) -> (Request<Void>, Request<Void>) { //-
let catalogue = shelf.post(.csv([["isbn", "copies"], ["9780441013593", "3"]]), to: "/imports")
let scanned = shelf.put("/books/12/scan", with: .file(scan, contentType: "application/pdf"))   // read in chunks as it is sent
return (catalogue, scanned) //-
} //-
// end sample

// sample: requests-endpoint
@Endpoint(.get, "/books/{id}/reviews")
struct RequestsReviews {
    struct Review: Codable, Sendable, Equatable {
        var stars: Int
        var text: String
    }
    typealias Response = [Review]

    @PathParameter var id: Int
    @QueryItem var minimumStars: Int?
}

func requestsReviews(provider: Provider) async throws -> (URLRequest, [RequestsReviews.Review]) { //-
let reviews = RequestsReviews(id: 12, minimumStars: 4)
let urlRequest = try await provider.urlRequest(for: Request(reviews))   // built, not sent
let sent = try await provider.send(reviews)                              // built and sent
return (urlRequest, sent) //-
} //-
// end sample

// sample: requests-shared-parts
func requestsSharedParts(baseURL: URL) -> Provider { //-
let provider = Provider(baseURL: baseURL)
    .modifyRequests { request in request.setHeader(.shelfAppKey, value: "reading-room") }
return provider //-
} //-
// end sample

// sample: requests-build-only
func requestsBuildOnly(shelf: RequestsShelf) async throws -> (HTTPRequest, Data?, URLRequest) { //-
let renew = shelf.patch("/loans/:id", with: .json(["days": 14])).parameter("id", 31)
let (head, body) = try await shelf.provider.httpRequest(for: renew)   // swift-http-types: method, scheme, authority, path, fields
let urlRequest = try await shelf.provider.urlRequest(for: renew)      // Foundation, for a stack of your own
return (head, body, urlRequest) //-
} //-
// end sample

// sample: requests-receiving-keeps-auth
func requestsReceiving(shelf: RequestsShelf, token: String) -> Request<RequestsMember> { //-
let lookup = shelf.get("/users/:id")
    .parameter("id", 7)
    .credentials(.bearer(token))
    .timeout(.seconds(10))
let member = lookup.receiving(.json(RequestsMember.self))   // still authenticated, still bounded by 10 s
return member //-
} //-
// end sample
