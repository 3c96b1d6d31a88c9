import Courier
import CourierTestSupport
import Foundation
import Testing

@Suite("Query items, checked by the server", .timeLimit(.minutes(2)))
struct QueryEncodingTests {
    func query(_ template: String = "/echo", arrays: ArrayEncoding? = nil, _ fill: (inout RequestBuilder) -> Void) async throws -> String? {
        var request = RequestBuilder(method: .get, path: template)
        request.queryArrayEncoding = arrays
        fill(&request)
        return try await TestServer.provider().echo(request).query
    }

    @Test("Items keep their order and repeated keys")
    func orderAndRepeats() async throws {
        let seen = try await query {
            $0.addQuery("b", value: 1)
            $0.addQuery("a", value: "x")
            $0.addQuery("b", value: 2)
        }
        #expect(seen == "b=1&a=x&b=2")
    }

    @Test("A static query in the template merges with added items")
    func staticQuery() async throws {
        #expect(try await query("/echo/transactions?merchant=Apple") { $0.addQuery("limit", value: 10) } == "merchant=Apple&limit=10")
        #expect(try await query("/echo/transactions?merchant=Apple") { _ in } == "merchant=Apple")
    }

    @Test("Optional values are omitted when nil")
    func optionals() async throws {
        let missing: String? = nil
        let present: Int? = 3
        #expect(try await query { $0.addQuery("a", value: missing); $0.addQuery("b", value: present) } == "b=3")
        #expect(try await query { $0.addQuery("a", value: missing) } == nil)
    }

    @Test("Arrays repeat the key by default; brackets and indexes on request")
    func arrays() async throws {
        #expect(try await query { $0.addQuery("tag", value: ["a", "b"]) } == "tag=a&tag=b")
        #expect(try await query(arrays: .brackets) { $0.addQuery("tag", value: ["a", "b"]) } == "tag%5B%5D=a&tag%5B%5D=b")
        #expect(try await query(arrays: .indexed) { $0.addQuery("tag", value: ["a", "b"]) } == "tag%5B0%5D=a&tag%5B1%5D=b")
    }

    @Test("Bool, Int, Double, String, RawRepresentable and Date values")
    func scalarValues() async throws {
        enum Sort: String, Codable { case newest }
        enum Plain: String { case oldest }
        let date = Date(timeIntervalSince1970: 1_700_000_000)
        let seen = try await query {
            $0.addQuery("flag", value: true)
            $0.addQuery("n", value: 42)
            $0.addQuery("x", value: 1.5)
            $0.addQuery("s", value: "text")
            $0.addQuery("sort", value: Sort.newest)
            $0.addQuery("plain", value: Plain.oldest)
            $0.addQuery("at", value: date)
        }
        #expect(seen == "flag=true&n=42&x=1.5&s=text&sort=newest&plain=oldest&at=2023-11-14T22%3A13%3A20Z")
    }

    @Test("Keys and values are percent-encoded as RFC 3986 requires")
    func encoding() async throws {
        let seen = try await query {
            $0.addQuery("q", value: "a+b&c=d e/f?#%")
            $0.addQuery("ключ", value: "значение")
        }
        #expect(seen == "q=a%2Bb%26c%3Dd%20e%2Ff%3F%23%25&%D0%BA%D0%BB%D1%8E%D1%87=%D0%B7%D0%BD%D0%B0%D1%87%D0%B5%D0%BD%D0%B8%D0%B5")
        let decoded = seen.flatMap { URLComponents(string: "/?" + $0)?.queryItems }
        #expect(decoded?.first?.value == "a+b&c=d e/f?#%")
    }

    @Test("Nested values become `key[member]` items")
    func nested() async throws {
        struct Filter: Encodable, Sendable { var status = "open"; var labels = ["bug", "ui"] }
        #expect(try await query { $0.addQuery("filter", value: Filter()) } == "filter%5Bstatus%5D=open&filter%5Blabels%5D=bug&filter%5Blabels%5D=ui")
    }

    @Test("Keys follow the key mapping")
    func keyMapping() async throws {
        var request = RequestBuilder(method: .get, path: "/echo")
        request.addQuery("pageSize", value: 5)
        // A key given to the fluent `query(_:)` is sent as written; `nil` sends it bare.
        let flagged = Request(request, receiving: .none).query(["rawKey": nil])
        let seen = try await TestServer.provider(keyMapping: .snakeCase).echo(flagged.builder)
        #expect(seen.query == "page_size=5&rawKey")
    }

    @Test("A value with no query form is an encoding error naming the key")
    func unencodable() async throws {
        var request = RequestBuilder(method: .get, path: "/echo")
        request.addQuery("ratio", value: Double.nan)
        let error = await #expect(throws: CourierError.self) { try await TestServer.provider().echo(request) }
        #expect(error?.kind == .encoding)
        #expect(error?.message.contains("'ratio'") == true)
    }

    /// A value the form encoder writes as a single `value`, as it did for text, integers and
    /// bools before they were kept as text.
    struct Encoded<Value: Encodable & Sendable>: Encodable, Sendable {
        var value: Value
        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(value)
        }
    }

    func addEncoded(_ request: inout RequestBuilder, _ key: String, _ value: some Encodable & Sendable) {
        request.addQuery(key, value: Encoded(value: value))
    }

    @Test("Text, integers and bools kept as text read the same as through the form encoder")
    func textFastPathMatchesTheEncoder() async throws {
        let provider = try await TestServer.provider(keyMapping: .snakeCase)
        var direct = RequestBuilder(method: .get, path: "/echo")
        var encoded = RequestBuilder(method: .get, path: "/echo")
        let text = "a b&c=d/é+%20?#"
        direct.addQuery("searchText", value: text)
        direct.addQuery("pageSize", value: -7)
        direct.addQuery("isDraft", value: false)
        direct.addQuery("maxCount", value: Int.max)
        addEncoded(&encoded, "searchText", text)
        addEncoded(&encoded, "pageSize", -7)
        addEncoded(&encoded, "isDraft", false)
        addEncoded(&encoded, "maxCount", Int.max)
        let viaText = try await provider.echo(direct).query
        let viaEncoder = try await provider.echo(encoded).query
        #expect(viaText == viaEncoder)
        #expect(viaText == "search_text=a%20b%26c%3Dd%2F%C3%A9%2B%2520%3F%23&page_size=-7&is_draft=false&max_count=9223372036854775807")
    }
}
