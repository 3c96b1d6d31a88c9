// The Courier samples of "Migrating from APIKit" (Sources/Courier/Courier.docc/MigratingFromAPIKit.md).
// Each region is compared with a block of the article; lines ending in `//-` are glue the article
// does not show. APIKitSampleRunTests runs them against the test server.
import Courier
import Foundation
import HTTPTypes

// sample: apikit-quick-start
@URLForm
@Endpoint(.post, "/loans/renew")
struct APIKitRenewLoan {
    struct Response: Decodable, Sendable {
        var dueDate: String
        var renewalsLeft: Int
    }

    @RequestHeader(name: "X-Library-Token") var token: String?
    @BodyField(name: "loan_id") var loanID: Int?
    @BodyField(name: "extra_days") var extraDays: Int?
}

func apikitQuickStart(provider: Provider, token: String) async throws -> APIKitRenewLoan.Response { //-
let renewal = try await provider.send(APIKitRenewLoan(token: token, loanID: 31, extraDays: 14))
print(renewal.dueDate)
return renewal //-
} //-
// end sample

// sample: apikit-base-url
func apikitProviders() -> (Provider, Provider) { //-
let library = Provider(baseURL: "https://library.example/api")
let archive = Provider(baseURL: "https://archive.library.example/v2")
return (library, archive) //-
} //-
// end sample

// sample: apikit-route-per-value
@Endpoint
struct APIKitShelfLock {
    typealias Response = EmptyResponse

    @RequestHTTPMethod var method: HTTPRequest.Method = .post
    @RequestPath var path = "/shelves/{shelf}/lock"
    @PathParameter var shelf: String
}

@Endpoint(.get, "/status")
struct APIKitMirrorStatus {
    typealias Response = String

    @AbsoluteURL var mirror: URL?   // when set, replaces the provider's base URL and the path
}

func apikitRoutes(provider: Provider) async throws { //-
_ = try await provider.send(APIKitShelfLock(shelf: "rare"))                                   // POST /shelves/rare/lock
_ = try await provider.send(APIKitShelfLock(method: .delete, path: "/shelves/{shelf}/lock", shelf: "rare")) // DELETE
} //-
// end sample

// sample: apikit-shared-parameters
func apikitSharedParameters(provider: Provider) -> Provider { //-
let library = provider.modifyRequests { request in
    request.addHeader("X-Library-App", value: "reading-room")
    request.addQuery("branch", value: "north")
}
return library //-
} //-
// end sample

// sample: apikit-headers
struct APIKitLoan: Codable, Sendable, Equatable {
    var id: Int
    var title: String
}

@Endpoint(.get, "/members/{memberID}/loans")
struct APIKitMemberLoans {
    typealias Response = [APIKitLoan]

    @PathParameter var memberID: Int
    @RequestHeader(name: "X-Library-Token") var token: String?
    @RequestHeader var acceptLanguage: String?   // Accept-Language
    @RequestHeaders var extra: [String: String]?
}
// end sample

// sample: apikit-query
struct APIKitTitle: Codable, Sendable, Equatable {
    var title: String
    var author: String
}

@Endpoint(.get, "/catalog/search")
struct APIKitCatalogSearch {
    typealias Response = [APIKitTitle]

    @QueryItem(name: "q") var text: String
    @QueryItem(name: "per_page") var perPage: Int?
    @QueryFlag(name: "available") var availableOnly = false
    @QueryItems var filters: [String: String]?
}
// end sample

// sample: apikit-body
@Endpoint(.post, "/holds")
struct APIKitPlaceHold {
    typealias Response = APIKitLoan

    @BodyField(name: "book_id") var bookID: Int
    @BodyField(name: "pickup_branch") var branch: String?
}

@URLForm
@Endpoint(.post, "/feedback")
struct APIKitFeedback {
    typealias Response = EmptyResponse

    @BodyField var message: String
    @BodyField var rating: Int?
}

@URLForm
@Endpoint(.get, "/titles")
struct APIKitTitles {
    typealias Response = [APIKitTitle]

    @RequestHTTPMethod var method: HTTPRequest.Method = .get
    @Param var author: String   // GET: ?author=…; POST: a form field
}
// end sample

// sample: apikit-hooks
struct APIKitNotJSON: Error {}

@Endpoint(.post, "/loans/{loanID}/return")
struct APIKitReturnLoan {
    typealias Response = APIKitLoan

    @PathParameter var loanID: Int

    // APIKit's intercept(urlRequest:): the encoded request, just before it is sent
    func beforeSending(_ request: inout RawRequest) throws {
        request.headers[HTTPField.Name("X-Signature")!] = "desk-7:\(request.path)"
    }

    // APIKit's intercept(urlResponse:): the response, before it is decoded
    func validate(_ response: Courier.Response) throws {
        guard response.headers[.contentType]?.hasPrefix("application/json") == true else { throw APIKitNotJSON() }
    }
}
// end sample

// sample: apikit-parsers
@Endpoint(.get, "/books/{id}/blurb")
struct APIKitBlurb {
    typealias Response = String   // the body as text, in the charset the response names

    @PathParameter var id: Int
}

struct APIKitBranchHours: Decodable, Sendable, Equatable {
    var open: Bool
    var closes: String
}

@EndpointResponse(format: .urlForm)
struct APIKitFormHours {
    @ResponseBody var hours: APIKitBranchHours?
}

@Endpoint(.get, "/legacy/hours")
struct APIKitLegacyHours {
    typealias Response = APIKitFormHours   // asks for and reads application/x-www-form-urlencoded
}

@Endpoint(.get, "/reports/overdue")
struct APIKitOverdueReport {
    typealias Response = [String]

    static var responseDecoder: ResponseDecoder<[String]> {
        .custom(accept: "text/csv") { _, _, body in
            String(decoding: body ?? Data(), as: UTF8.self).split(whereSeparator: \.isNewline).map(String.init)
        }
    }
}
// end sample

// sample: apikit-completion
func apikitPerform(provider: Provider, done: @escaping @Sendable (String?) -> Void) { //-
provider.send(APIKitBlurb(id: 7)) { result in
    switch result {
    case .success(let blurb):
        print(blurb)
        done(blurb) //-
    case .failure(let error):
        print(error.kind, error.message)
        done(nil) //-
    }
}
} //-
// end sample

// sample: apikit-custom-value
struct APIKitCommaList: Encodable, Sendable {
    var values: [String]

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(values.joined(separator: ","))
    }
}

@Endpoint(.get, "/books")
struct APIKitBooksByISBN {
    typealias Response = [APIKitTitle]

    @QueryItem var isbns: APIKitCommaList   // ?isbns=a,b,c
}
// end sample

// sample: apikit-hand-written
struct APIKitSignedRenewal: Endpoint {
    typealias Response = APIKitLoan

    var loanID: Int
    var days: Int

    func makeRequest() -> RequestBuilder {
        var request = RequestBuilder(method: .post, path: "/loans/:id/renew", operationID: "SignedRenewal")
        request.addParameter("id", value: loanID)
        request.addField("days", value: days)
        request.addHeader("X-Desk-Signature", value: "desk-7:\(loanID):\(days)")
        return request
    }
}
// end sample

// sample: apikit-defect-query-and-json
@Endpoint(.post, "/shelves/{shelf}/books")
struct APIKitShelveBook {
    typealias Response = APIKitTitle

    @PathParameter var shelf: String
    @QueryItem var notify: Bool?
    @BodyField var title: String
    @BodyField var author: String
}
// end sample

// sample: apikit-defect-key-query
@Endpoint(.get, "/catalog")
struct APIKitCatalogPage {
    typealias Response = [APIKitTitle]

    @QueryFlag(name: "large_print") var largePrint: Bool
    @QueryItem var page: Int
}

func apikitLargePrint(provider: Provider) async throws { //-
_ = try await provider.send(APIKitCatalogPage(largePrint: false, page: 2))   // GET /catalog?page=2
_ = try await provider.send(APIKitCatalogPage(largePrint: true, page: 2))    // GET /catalog?large_print&page=2
} //-
// end sample

// sample: apikit-defect-headers
@Headers(["X-Library-App": "reading-room"])
@Endpoint(.get, "/members/{memberID}")
struct APIKitMemberCard {
    typealias Response = APIKitLoan

    @PathParameter var memberID: Int
    @RequestHeader(name: "X-Library-Token") var token: String
    @RequestHeader(name: "X-Request-ID") var requestID: String
    @RequestHeaders var extra: [String: String]?
}
// end sample

// sample: apikit-defect-status
struct APIKitProblem: Decodable, Sendable {
    var reason: String
}

@Endpoint(.get, "/books/{id}")
struct APIKitBookDetails {
    typealias Response = APIKitTitle

    @PathParameter var id: Int
}

func apikitMissingBook(provider: Provider) async -> String? { //-
do {
    let book = try await provider.send(APIKitBookDetails(id: 999))
    print(book.title)
} catch where error.kind == .status {
    let problem = try? error.errorBody(APIKitProblem.self)
    print(error.response?.statusCode ?? 0, problem?.reason ?? "")   // 404 no such book
    return problem?.reason //-
} catch {
    print("failed before a status arrived, or the body did not decode:", error.kind)
}
return nil //-
} //-
// end sample

// sample: apikit-defect-typed-errors
@EndpointResponse
struct APIKitBookLookup {
    @ResponseStatusCode var status: Int
    @ResponseBody var book: APIKitTitle?
    @ResponseErrorBody var problem: APIKitProblem?
}

@Endpoint(.get, "/books/{id}")
struct APIKitLookUpBook {
    typealias Response = APIKitBookLookup

    @PathParameter var id: Int
}
// end sample

// sample: apikit-defect-reflection
func apikitInspect() -> RequestBuilder { //-
let request = APIKitCatalogSearch(text: "dune", perPage: 20).makeRequest()   // written by @Endpoint at compile time
print(request.method, request.path)
return request //-
} //-
// end sample
