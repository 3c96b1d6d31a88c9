import Courier
import CourierTestSupport
import Foundation
import HTTPTypes
import Testing

/// The samples of "Migrating from APIKit", run against the test server.
@Suite(.timeLimit(.minutes(1)))
struct APIKitSampleRunTests {
    /// The JSON object of a request body the server saw.
    func object(_ echo: Echo?) throws -> [String: String] {
        let data = try #require(echo?.bodyData)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        return object.mapValues { "\($0)" }
    }

    @Test func quickStartSendsAFormWithItsHeader() async throws {
        let (provider, server) = try await TestServer.echoing(reply: #"{"dueDate":"2026-03-01","renewalsLeft":1}"#)
        let renewal = try await apikitQuickStart(provider: provider, token: "t-1")
        #expect(renewal.dueDate == "2026-03-01")
        #expect(renewal.renewalsLeft == 1)
        #expect(server.last?.method == "POST")
        #expect(server.last?.path == "/echo/loans/renew")
        #expect(server.last?.header("x-library-token") == "t-1")
        #expect(server.last?.header("content-type") == "application/x-www-form-urlencoded")
        #expect(server.last?.bodyText == "loan_id=31&extra_days=14")
    }

    @Test func providersAndRoutesPerValue() async throws {
        let (library, archive) = apikitProviders()
        #expect(library.baseURL?.absoluteString == "https://library.example/api")
        #expect(archive.baseURL?.absoluteString == "https://archive.library.example/v2")

        let (provider, server) = try await TestServer.echoing()
        try await apikitRoutes(provider: provider)
        #expect(server.echoes.map(\.method) == ["POST", "DELETE"])
        #expect(server.echoes.map(\.path) == ["/echo/shelves/rare/lock", "/echo/shelves/rare/lock"])

        let (other, otherServer) = try await TestServer.echoing(reply: "up")
        let mirror = try #require(URL(string: try await TestServer.baseURL("/echo/mirror/status")))
        #expect(try await other.send(APIKitMirrorStatus(mirror: mirror)) == "up")
        #expect(otherServer.last?.path == "/echo/mirror/status")
    }

    @Test func sharedParametersFromAModifier() async throws {
        let (provider, server) = try await TestServer.echoing(reply: "[]")
        _ = try await apikitSharedParameters(provider: provider).send(APIKitMemberLoans(memberID: 4))
        #expect(server.last?.header("x-library-app") == "reading-room")
        #expect(server.last?.query == "branch=north")
    }

    @Test func headersSingleAndByDictionary() async throws {
        let (provider, server) = try await TestServer.echoing(reply: #"[{"id":1,"title":"Kindred"}]"#)
        let loans = try await provider.send(APIKitMemberLoans(
            memberID: 4, token: "t-2", acceptLanguage: "fr", extra: ["X-Device": "kiosk-3", "X-Trace": "on"]
        ))
        #expect(loans == [APIKitLoan(id: 1, title: "Kindred")])
        let seen = try #require(server.last)
        #expect(seen.path == "/echo/members/4/loans")
        #expect(seen.header("x-library-token") == "t-2")
        #expect(seen.header("accept-language") == "fr")
        #expect(seen.header("x-device") == "kiosk-3")
        #expect(seen.header("x-trace") == "on")
        _ = try await provider.send(APIKitMemberLoans(memberID: 4))
        #expect(server.last?.header("x-library-token") == nil)
    }

    @Test func queryItemsFlagsAndDictionaries() async throws {
        let (provider, server) = try await TestServer.echoing(reply: "[]")
        _ = try await provider.send(APIKitCatalogSearch(text: "dune", perPage: 20, availableOnly: true, filters: ["lang": "en", "format": "audio"]))
        #expect(server.last?.query == "q=dune&per_page=20&available&format=audio&lang=en")
        _ = try await provider.send(APIKitCatalogSearch(text: "dune"))
        #expect(server.last?.query == "q=dune")
    }

    @Test func jsonFormAndMethodDependentFields() async throws {
        let (provider, server) = try await TestServer.echoing(reply: #"{"id":9,"title":"Dune"}"#)
        _ = try await provider.send(APIKitPlaceHold(bookID: 9, branch: nil))
        #expect(server.last?.header("content-type") == "application/json")
        #expect(server.last?.bodyText == #"{"book_id":9}"#)
        _ = try await provider.send(APIKitPlaceHold(bookID: 9, branch: "north"))
        #expect(try object(server.last) == ["book_id": "9", "pickup_branch": "north"])

        _ = try await provider.send(APIKitFeedback(message: "quiet please", rating: 5))
        #expect(server.last?.header("content-type") == "application/x-www-form-urlencoded")
        #expect(server.last?.bodyText == "message=quiet+please&rating=5")

        let (titles, titlesServer) = try await TestServer.echoing(reply: "[]")
        _ = try await titles.send(APIKitTitles(author: "Le Guin"))
        #expect(titlesServer.last?.query == "author=Le%20Guin" || titlesServer.last?.query == "author=Le+Guin")
        #expect(titlesServer.last?.bodyIsEmpty == true)
        _ = try await titles.send(APIKitTitles(method: .post, author: "Le Guin"))
        #expect(titlesServer.last?.query == nil)
        #expect(titlesServer.last?.bodyText == "author=Le+Guin")
    }

    @Test func interceptAndValidateHooks() async throws {
        let (provider, server) = try await TestServer.echoing(reply: #"{"id":3,"title":"Kindred"}"#)
        #expect(try await provider.send(APIKitReturnLoan(loanID: 3)) == APIKitLoan(id: 3, title: "Kindred"))
        #expect(server.last?.header("x-signature") == "desk-7:/loans/3/return")

        // The echo answers, and the interceptor relabels the answer as text.
        let textProvider = try await TestServer.provider("/echo").intercept { req, next in
            _ = try await next(req)
            return Response(head: HTTPResponse(status: .ok, headerFields: [.contentType: "text/plain"]), body: Data("{}".utf8), request: req)
        }
        let refused = await #expect(throws: CourierError.self) { try await textProvider.send(APIKitReturnLoan(loanID: 3)) }
        #expect(refused?.kind == .validation)
        #expect(refused?.underlyingError is APIKitNotJSON)
    }

    @Test func parsersTextFormAndCustom() async throws {
        let (provider, server) = try await TestServer.echoing(reply: "A quiet classic.")
        #expect(try await provider.send(APIKitBlurb(id: 7)) == "A quiet classic.")

        let (form, formServer) = try await TestServer.echoing(reply: "open=true&closes=18%3A00")
        #expect(try await form.send(APIKitLegacyHours()).hours == APIKitBranchHours(open: true, closes: "18:00"))
        #expect(formServer.last?.header("accept") == "application/x-www-form-urlencoded")

        let (csv, csvServer) = try await TestServer.echoing(reply: "L-1,ada\nL-2,grace\n")
        #expect(try await csv.send(APIKitOverdueReport()) == ["L-1,ada", "L-2,grace"])
        #expect(csvServer.last?.header("accept") == "text/csv")
        _ = server
    }

    @Test func completionHandlerGetsTheResult() async throws {
        let (provider, _) = try await TestServer.echoing(reply: "A quiet classic.")
        let blurb = await withCheckedContinuation { continuation in
            apikitPerform(provider: provider) { continuation.resume(returning: $0) }
        }
        #expect(blurb == "A quiet classic.")
        let (failing, _) = try await TestServer.echoing(reply: "", status: .internalServerError)
        let none = await withCheckedContinuation { continuation in
            apikitPerform(provider: failing) { continuation.resume(returning: $0) }
        }
        #expect(none == nil)
    }

    @Test func customValueAndHandWrittenEndpoint() async throws {
        let (provider, server) = try await TestServer.echoing(reply: "[]")
        _ = try await provider.send(APIKitBooksByISBN(isbns: APIKitCommaList(values: ["1", "2", "3"])))
        #expect(server.last?.query == "isbns=1,2,3" || server.last?.query == "isbns=1%2C2%2C3")

        let (renewing, renewServer) = try await TestServer.echoing(reply: #"{"id":5,"title":"Dune"}"#)
        #expect(try await renewing.send(APIKitSignedRenewal(loanID: 5, days: 7)) == APIKitLoan(id: 5, title: "Dune"))
        #expect(renewServer.last?.path == "/echo/loans/5/renew")
        #expect(renewServer.last?.header("x-desk-signature") == "desk-7:5:7")
        #expect(renewServer.last?.bodyText == #"{"days":7}"#)
    }

    @Test func queryAndJSONInOneRequest() async throws {
        let (provider, server) = try await TestServer.echoing(reply: #"{"title":"Dune","author":"Herbert"}"#)
        _ = try await provider.send(APIKitShelveBook(shelf: "sf", notify: true, title: "Dune", author: "Herbert"))
        #expect(server.last?.path == "/echo/shelves/sf/books")
        #expect(server.last?.query == "notify=true")
        #expect(server.last?.header("content-type") == "application/json")
        #expect(try object(server.last) == ["title": "Dune", "author": "Herbert"])
    }

    @Test func keyOnlyQueryFollowsItsBool() async throws {
        let (provider, server) = try await TestServer.echoing(reply: "[]")
        try await apikitLargePrint(provider: provider)
        #expect(server.echoes.map(\.query) == ["page=2", "large_print&page=2"])
    }

    @Test func everyHeaderArrives() async throws {
        let (provider, server) = try await TestServer.echoing(reply: #"{"id":1,"title":"Kindred"}"#)
        _ = try await provider.send(APIKitMemberCard(memberID: 8, token: "t-3", requestID: "r-9", extra: ["X-Device": "kiosk-3"]))
        let seen = try #require(server.last)
        #expect(seen.header("x-library-app") == "reading-room")
        #expect(seen.header("x-library-token") == "t-3")
        #expect(seen.header("x-request-id") == "r-9")
        #expect(seen.header("x-device") == "kiosk-3")
    }

    @Test func notFoundIsAStatusError() async throws {
        let (provider, _) = try await TestServer.echoing(reply: #"{"reason":"no such book"}"#, status: .notFound)
        #expect(await apikitMissingBook(provider: provider) == "no such book")
        let lookup = try await provider.send(APIKitLookUpBook(id: 999))
        #expect(lookup.status == 404)
        #expect(lookup.book == nil)
        #expect(lookup.problem?.reason == "no such book")

        let (found, _) = try await TestServer.echoing(reply: #"{"title":"Dune","author":"Herbert"}"#)
        let hit = try await found.send(APIKitLookUpBook(id: 1))
        #expect(hit.book == APIKitTitle(title: "Dune", author: "Herbert"))
        #expect(hit.problem == nil)
    }

    @Test func requestsAreBuiltWithoutReflection() async throws {
        let request = apikitInspect()
        #expect(request.method == .get)
        #expect(request.path == "/catalog/search")
        let (provider, server) = try await TestServer.echoing(reply: "[]")
        _ = try await provider.send(Request(request, receiving: .json([APIKitTitle].self)))
        #expect(server.last?.query == "q=dune&per_page=20")
    }
}
