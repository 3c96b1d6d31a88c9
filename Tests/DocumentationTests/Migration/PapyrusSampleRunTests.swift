import Courier
import CourierTestSupport
import Foundation
import Testing

/// The samples of "Migrating from Papyrus", run against the test server.
@Suite(.timeLimit(.minutes(1)))
struct PapyrusSampleRunTests {
    /// The JSON object of a request body the server saw.
    func object(_ echo: Echo?) throws -> [String: String] {
        let data = try #require(echo?.bodyData)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        return object.mapValues { "\($0)" }
    }

    @Test func quickStartDeclarationSendsPathBodyAndAuthorization() async throws {
        let (provider, server) = try await TestServer.echoing(reply: #"[{"bookID":4,"days":14}]"#)
        let library: any PapyrusLibrary = PapyrusLibraryAPI(provider: provider)
        #expect(try await library.loans(member: "ada") == [PapyrusLoan(bookID: 4, days: 14)])
        #expect(server.last?.path == "/echo/members/ada/loans")
        #expect(server.last?.header("authorization") == "Bearer library-token")

        let (posting, postServer) = try await TestServer.echoing(reply: #"{"bookID":4,"days":14}"#)
        _ = try await PapyrusLibraryAPI(provider: posting).borrow(bookID: 4, days: 14)
        #expect(postServer.last?.method == "POST")
        #expect(postServer.last?.bodyText == #"{"bookID":4,"days":14}"#)
    }

    @Test func methodsIncludingACustomOne() async throws {
        let (provider, server) = try await TestServer.echoing()
        let shelves = PapyrusShelvesAPI(provider: provider)
        try await shelves.remove(id: 3)
        #expect(server.last?.method == "DELETE")
        #expect(server.last?.path == "/echo/shelves/3")
        try await shelves.purge(id: 3)
        #expect(server.last?.method == "PURGE")
        #expect(server.last?.path == "/echo/shelves/3/cache")
    }

    @Test func pathsAndQueries() async throws {
        let (provider, server) = try await TestServer.echoing(reply: "[]")
        let catalog = PapyrusCatalogAPI(provider: provider)
        let (one, oneServer) = try await TestServer.echoing(reply: #"{"id":5,"title":"Kindred"}"#)
        _ = try await PapyrusCatalogAPI(provider: one).book(author: "butler", id: 5)
        #expect(oneServer.last?.path == "/echo/authors/butler/books/5")
        _ = try await catalog.books(author: "butler", genre: nil, page: 2)
        #expect(server.last?.target == "/echo/authors/butler/books?page=2")
        _ = try await catalog.books(author: "butler", genre: "fiction", page: 2)
        #expect(server.last?.target == "/echo/authors/butler/books?genre=fiction&page=2")
        _ = try await catalog.sortedBooks()
        #expect(server.last?.target == "/echo/books?sort=title")
        _ = try await catalog.reviews(of: 8)
        #expect(server.last?.path == "/echo/books/8/reviews")
    }

    @Test func staticVariableAndAuthorizationHeaders() async throws {
        let (provider, server) = try await TestServer.echoing(reply: "[]")
        let branch = PapyrusBranchAPI(provider: provider)
        _ = try await branch.hours()
        #expect(server.last?.header("cache-control") == "no-cache")
        #expect(server.last?.header("x-library-client") == "shelf-app/2.1")
        #expect(server.last?.header("authorization") == "Basic " + Data("librarian:s3cret".utf8).base64EncodedString())
        let (counting, countingServer) = try await TestServer.echoing(reply: "12")
        #expect(try await PapyrusBranchAPI(provider: counting).visitors(acceptLanguage: "fr") == 12)
        #expect(countingServer.last?.header("accept-language") == "fr")
        #expect(countingServer.last?.rawHeaderNames.contains("Accept-Language") == true)
    }

    @Test func bodiesFieldsFormsAndMultipart() async throws {
        let (provider, server) = try await TestServer.echoing()
        let reviews = PapyrusReviewsAPI(provider: provider)
        try await reviews.post(id: 1, review: PapyrusReview(stars: 5, text: "yes"))
        #expect(server.last?.bodyText == #"{"stars":5,"text":"yes"}"#)
        try await reviews.edit(id: 1, stars: 4, text: "mostly")
        #expect(server.last?.method == "PUT")
        #expect(server.last?.bodyText == #"{"stars":4,"text":"mostly"}"#)
        try await reviews.rate(id: 1, stars: 3)
        #expect(server.last?.bodyText == #"{"stars":3}"#)
        try await reviews.flag(id: 1, reason: "spoilers ahead")
        #expect(server.last?.header("content-type") == "application/x-www-form-urlencoded")
        #expect(server.last?.bodyText == "reason=spoilers+ahead")
        try await reviews.upload(
            id: 1,
            cover: Part(data: Data("front".utf8), fileName: "cover.jpg", mimeType: "image/jpeg"),
            back: Part(data: Data("back".utf8), fileName: "back.jpg", mimeType: "image/jpeg")
        )
        #expect(server.last?.header("content-type")?.hasPrefix("multipart/form-data; boundary=") == true)
        #expect(server.last?.bodyText.contains(#"name="cover"; filename="cover.jpg""#) == true)
        #expect(server.last?.bodyText.contains(#"name="back"; filename="back.jpg""#) == true)

        let desk = PapyrusReturnsDeskAPI(provider: provider)
        try await desk.returnBook(barcode: "B-1", damaged: false)
        #expect(server.last?.bodyText == "barcode=B-1&damaged=false")
        try await desk.correct(barcode: "B-1", damaged: true)
        #expect(server.last?.method == "PATCH")
        #expect(server.last?.path == "/echo/desk/returns/B-1")
        #expect(server.last?.bodyText == "damaged=true")
    }

    @Test func customEncoderAndKeyMapping() async throws {
        let (provider, server) = try await TestServer.echoing()
        try await PapyrusHoldsAPI(provider: provider).place(bookId: 3, pickUpBy: Date(timeIntervalSince1970: 86400))
        #expect(server.last?.bodyText == #"{"book_id":3,"pick_up_by":"1970-01-02T00:00:00Z"}"#)
    }

    @Test func responsesOfEveryShape() async throws {
        let (provider, _) = try await TestServer.echoing(reply: #"{"id":7,"title":"Kindred"}"#)
        let covers = PapyrusCoversAPI(provider: provider)
        let (status, title) = try await papyrusReadResponses(covers: covers)
        #expect(status == 200)
        #expect(title == "Kindred")
        #expect(try await covers.book(id: 7) == PapyrusBook(id: 7, title: "Kindred"))
        #expect(try await covers.cover(id: 7).count == 26)

        let (empty, _) = try await TestServer.echoing(reply: "")
        let emptyCovers = PapyrusCoversAPI(provider: empty)
        #expect(try await emptyCovers.thumbnail(id: 7) == nil)
        await #expect(throws: CourierError.self) { try await emptyCovers.cover(id: 7) }
        try await emptyCovers.removeCover(id: 7)
    }

    @Test func errorsCarryRequestAndResponse() async throws {
        let (provider, _) = try await TestServer.echoing(reply: #"{"reason":"no such book"}"#, status: .notFound)
        #expect(await papyrusHandleErrors(library: PapyrusLibraryAPI(provider: provider)) == #"{"reason":"no such book"}"#)
    }

    @Test func modifiersAndInterceptors() async throws {
        let (provider, server) = try await TestServer.echoing(reply: "[]")
        _ = try await PapyrusCatalogAPI(provider: papyrusConfigure(provider)).sortedBooks()
        #expect(server.last?.header("x-branch") == "north")
        #expect(server.last?.target == "/echo/books?sort=title&lang=en")
    }

    @Test func modifierAndInterceptorTypes() async throws {
        let (provider, server) = try await TestServer.echoing(reply: "[]")
        let decoupled = papyrusDecoupled()
        #expect(decoupled.modifiers.count == 1)
        #expect(decoupled.middlewares.count == 1)
        let typed = provider.modifyRequests(PapyrusBranchModifier(branch: "south")).intercept(PapyrusTiming())
        _ = try await PapyrusCatalogAPI(provider: typed).sortedBooks()
        #expect(server.last?.header("x-branch") == "south")
    }

    @Test func completionHandlers() async throws {
        let (provider, server) = try await TestServer.echoing(reply: #"{"id":2,"title":"Piranesi"}"#)
        let kiosk = PapyrusKioskAPI(provider: provider)
        let book = try await withCheckedThrowingContinuation { continuation in
            kiosk.book(id: 2) { continuation.resume(with: $0) }
        }
        #expect(book.title == "Piranesi")
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            kiosk.checkOut(id: 2) { continuation.resume(with: $0) }
        }
        #expect(server.last?.method == "POST")
        #expect(server.last?.path == "/echo/books/2/checkout")
        let status = await withCheckedContinuation { continuation in
            kiosk.status { continuation.resume(returning: $0.statusCode) }
        }
        #expect(status == 200)
    }

    @Test func mocks() async throws {
        #expect(try await papyrusHandwrittenMock() == 2)
        #expect(try await papyrusGeneratedMock() == ["ada", "grace"])
        let unmocked = await #expect(throws: CourierError.self) { try await PapyrusWaitlistMock().waitlist(id: 1) }
        #expect(unmocked?.kind == .unmocked)
    }

    @Test func pathValuesWithSuffixesAreEncoded() async throws {
        let (provider, server) = try await TestServer.echoing()
        let error = try await papyrusPathValues(exports: PapyrusExportsAPI(provider: provider))
        #expect(server.echoes.count == 1)
        #expect(server.last?.path == "/echo/exports/loans%202024%2Fq1.json")
        #expect(error?.kind == .invalidRequest)
    }

    @Test func headerNamesAreSentAsSpelled() async throws {
        let provider = try await TestServer.provider("/echo")
        let response = try await PapyrusTracingAPI(provider: provider).trace(xRequestID: "r-1", branch: "N7")
        let seen = try JSONDecoder().decode(Echo.self, from: try #require(response.body))
        #expect(seen.rawHeaderNames.contains("X-Request-ID"))
        #expect(seen.rawHeaderNames.contains("x-branch-CODE"))
        #expect(seen.rawHeaderNames.contains("X-API-Key"))
        #expect(seen.header("x-request-id") == "r-1")
        #expect(seen.header("x-branch-code") == "N7")
        #expect(seen.header("x-api-key") == "k-123")
    }

    @Test func overloadedMocksDoNotCollide() async throws {
        #expect(try await papyrusOverloadedMocks() == ["found by id", "found by ISBN 9780441013593", "dune", "number 9"])
    }

    @Test func asyncHTTPClientSendsEveryHeader() async throws {
        let response = try await papyrusInventory(baseURL: TestServer.baseURL("/echo"))
        let seen = try JSONDecoder().decode(Echo.self, from: try #require(response.body))
        #expect(seen.path == "/echo/inventory/north")
        #expect(seen.header("authorization") == "Bearer library-token")
        #expect(seen.header("x-request-id") == "req-7")
        #expect(seen.rawHeaderNames.contains("X-Request-ID"))
    }

    @Test func clientsAreSharedBetweenTasks() async throws {
        let members = try await papyrusConcurrentMembers(provider: TestServer.provider())
        #expect(members.map(\.id).sorted() == [1, 2, 3])
        #expect(members.allSatisfy { $0.name == "Ada" })
    }
}
