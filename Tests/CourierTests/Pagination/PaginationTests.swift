@testable import Courier
import CourierTestSupport
import Foundation
import HTTPTypes
import Testing

struct Listing: Codable, Sendable, Equatable {
    var items: [Int]
    var cursor: String?
}

@API
protocol Lister {
    @GET("/script/:name")
    func list(name: String) async throws -> Listing
}

struct ListingEndpoint: Endpoint {
    typealias Response = Listing
    var name: String
    func makeRequest() -> RequestBuilder { RequestBuilder(method: .get, path: "/script/\(name)") }
}

/// A script serving three pages of two items, each linking to the next with a `Link` header
/// (the first relative, the second absolute) and carrying a cursor in its body.
func pagedScript(_ name: String, port: Int) {
    FaultServer.script(name) { arrival in
        let page = arrival.number
        let body = #"{"items":[\#(page * 10 + 1),\#(page * 10 + 2)]\#(page < 3 ? #","cursor":"c\#(page + 1)""# : "")}"#
        var headers = [("Content-Type", "application/json")]
        switch page {
        case 1: headers.append(("Link", #"</script/\#(name)?page=2>; rel="next", </script/\#(name)?page=3>; rel="last""#))
        case 2: headers.append(("Link", #"<http://127.0.0.1:\#(port)/script/\#(name)?page=3>; title="three"; rel="next last""#))
        default: break
        }
        return .answer(status: 200, headers: headers, body: body)
    }
}

@Suite("Pagination: pages through Link headers or cursors, each a request through the pipeline", .serialized, .timeLimit(.minutes(2)))
struct PaginationTests {
    @Test("Three pages through Link, in every front-end, then the items one by one", arguments: TransportKind.allCases)
    func linkPages(transport: TransportKind) async throws {
        let provider = try await transport.faultProvider(idle: .seconds(5))
        let port = try await FaultServer.port()
        let requests: [(String, @Sendable (String) -> Request<Listing>)] = [
            ("@API", { ListerAPI.Requests.list(name: $0) }),
            ("Endpoint", { Request(ListingEndpoint(name: $0)) }),
            ("fluent", { Request(.get, "/script/\($0)", receiving: .json(Listing.self)) }),
        ]
        for (label, request) in requests {
            let name = scriptName("pages-\(label.filter(\.isLetter))", transport)
            pagedScript(name, port: port)
            var pages: [Listing] = []
            for try await page in provider.pages(request(name)) { pages.append(page) }
            #expect(pages.map(\.items) == [[11, 12], [21, 22], [31, 32]], "\(label)")
            #expect(FaultServer.arrivals(ofScript: name).map(\.target) == ["/script/\(name)", "/script/\(name)?page=2", "/script/\(name)?page=3"], "\(label)")
        }
        let name = scriptName("pages-items", transport)
        pagedScript(name, port: port)
        var items: [Int] = []
        for try await item in provider.pages(ListerAPI.Requests.list(name: name)).items(\.items) { items.append(item) }
        #expect(items == [11, 12, 21, 22, 31, 32])
    }

    @Test("A cursor from the page's body, and a page limit", arguments: TransportKind.allCases)
    func cursorPages(transport: TransportKind) async throws {
        let provider = try await transport.faultProvider(idle: .seconds(5))
        let name = scriptName("pages-cursor", transport)
        pagedScript(name, port: try await FaultServer.port())
        let pages = provider.pages(Request(.get, "/script/\(name)", receiving: .json(Listing.self)).query("size", 2)) { context in
            context.page.cursor.map { .query("cursor", $0) }
        }
        var seen: [[Int]] = []
        for try await page in pages { seen.append(page.items) }
        #expect(seen == [[11, 12], [21, 22], [31, 32]])
        #expect(FaultServer.arrivals(ofScript: name).map(\.target) == ["/script/\(name)?size=2", "/script/\(name)?size=2&cursor=c2", "/script/\(name)?size=2&cursor=c3"])

        let limited = scriptName("pages-limit", transport)
        pagedScript(limited, port: try await FaultServer.port())
        var count = 0
        for try await _ in provider.pages(Request(.get, "/script/\(limited)", receiving: .json(Listing.self)), limit: 2) { count += 1 }
        #expect(count == 2)
        #expect(FaultServer.arrivals(ofScript: limited).count == 2)
    }

    @Test("A page that fails ends the sequence with its error; retries apply to each page", arguments: TransportKind.allCases)
    func failingPage(transport: TransportKind) async throws {
        var provider = try await transport.faultProvider(idle: .seconds(5))
        provider.retryPolicy = RetryPolicy(maxAttempts: 2, baseDelay: .milliseconds(1), jitter: .none)
        let name = scriptName("pages-fail", transport)
        FaultServer.script(name) { arrival in
            switch arrival.number {
            case 1: .answer(status: 200, headers: [("Link", "<?page=2>; rel=next")], body: #"{"items":[1]}"#)
            case 2: .answer(status: 503)
            case 3: .answer(status: 200, headers: [("Link", "<?page=3>; rel=next")], body: #"{"items":[2]}"#)
            default: .answer(status: 404)
            }
        }
        var seen: [[Int]] = []
        let error = await #expect(throws: CourierError.self) {
            for try await page in provider.pages(Request(.get, "/script/\(name)", receiving: .json(Listing.self))) { seen.append(page.items) }
        }
        #expect(seen == [[1], [2]])
        #expect(error?.response?.statusCode == 404)
        #expect(FaultServer.arrivals(ofScript: name).map(\.target).suffix(2) == ["/script/\(name)?page=2", "/script/\(name)?page=3"])
    }

    @Test("Link headers: several links, quoted and bare parameters, several relations, junk between")
    func linkParser() {
        let links = LinkHeader.parse(#"<https://a.example/2>; rel="next"; title="a, b", junk, <3>;REL=prev;rel=ignored , <4>; rel="Next Last""#)
        #expect(links.map(\.target) == ["https://a.example/2", "3", "4"])
        #expect(links.map(\.relations) == [["next"], ["prev"], ["next", "last"]])
        #expect(links.first?.parameters["title"] == "a, b")
        #expect(LinkHeader.parse("").isEmpty)
        #expect(LinkHeader.parse("<unterminated; rel=next").isEmpty)
    }
}
