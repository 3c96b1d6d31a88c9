import Courier
import CourierTestSupport
import Testing

@Suite("Path templates and path values, checked by the server", .timeLimit(.minutes(2)))
struct PathEncodingTests {
    func echo(_ template: String, _ values: [(String, String)]) async throws -> Echo {
        var request = RequestBuilder(method: .get, path: template)
        for (name, value) in values { request.addParameter(name, value: value) }
        return try await TestServer.provider().echo(request)
    }

    @Test("`:name` and `{name}` placeholders are replaced")
    func placeholders() async throws {
        #expect(try await echo("/echo/users/:id/repos/{repo}", [("id", "42"), ("repo", "courier")]).path == "/echo/users/42/repos/courier")
    }

    @Test("A placeholder followed by a suffix in the same segment")
    func placeholderWithSuffix() async throws {
        #expect(try await echo("/echo/files/:name.json", [("name", "report")]).path == "/echo/files/report.json")
        #expect(try await echo("/echo/files/{name}.tar.gz", [("name", "a b")]).path == "/echo/files/a%20b.tar.gz")
    }

    @Test(
        "Values stay inside their segment",
        arguments: [
            ("a/b", "a%2Fb"),
            ("../admin", "..%2Fadmin"),
            ("%2e%2e", "%252e%252e"),
            ("%2e%2e%2fadmin", "%252e%252e%252fadmin"),
            ("?x=1", "%3Fx%3D1"),
            ("#y", "%23y"),
            ("%", "%25"),
            ("a b", "a%20b"),
            ("ünï/cødé", "%C3%BCn%C3%AF%2Fc%C3%B8d%C3%A9"),
            ("a;b,c=d&e+f", "a%3Bb%2Cc%3Dd%26e%2Bf"),
            ("...", "..."),
        ]
    )
    func valuesStayInSegment(value: String, encoded: String) async throws {
        let seen = try await echo("/echo/items/:id/detail", [("id", value)])
        #expect(seen.path == "/echo/items/\(encoded)/detail")
        #expect(seen.query == nil)
    }

    @Test("A value that would be `.`, `..` or an empty segment is refused, naming it", arguments: ["..", ".", ""])
    func dotSegmentsRefused(value: String) async throws {
        let error = await #expect(throws: CourierError.self) {
            try await echo("/echo/items/:id/detail", [("id", value)])
        }
        #expect(error?.kind == .invalidRequest)
        #expect(error?.message.contains("'id'") == true)
        #expect(error?.request == nil, "nothing may be sent")
    }

    @Test("`..` next to template text is an ordinary segment")
    func dotsWithSuffix() async throws {
        let seen = try await echo("/echo/files/:name.json", [("name", "..")])
        #expect(seen.path == "/echo/files/...json")
    }

    @Test("A placeholder with no value is an error naming it")
    func missingValue() async throws {
        let error = await #expect(throws: CourierError.self) {
            try await echo("/echo/users/:id/repos/{repo}", [("id", "1")])
        }
        #expect(error?.kind == .invalidRequest)
        #expect(error?.message.contains("'repo'") == true)
    }

    @Test("An optional path value that is nil is an error, never the text \"nil\"")
    func nilValue() async throws {
        var request = RequestBuilder(method: .get, path: "/echo/users/:id")
        let id: Int? = nil
        request.addParameter("id", value: id)
        let error = await #expect(throws: CourierError.self) { try await TestServer.provider().echo(request) }
        #expect(error?.message.contains("'id'") == true)
    }

    @Test("A value for a placeholder the path does not have is an error")
    func unusedValue() async throws {
        let error = await #expect(throws: CourierError.self) {
            try await echo("/echo/users/:id", [("id", "1"), ("idd", "2")])
        }
        #expect(error?.message.contains("'idd'") == true)
    }

    @Test("Enum raw values, integers and UUIDs as path values")
    func typedValues() async throws {
        enum Kind: String { case admin }
        var request = RequestBuilder(method: .get, path: "/echo/:kind/:n/:flag")
        request.addParameter("kind", value: Kind.admin)
        request.addParameter("n", value: -7)
        request.addParameter("flag", value: true)
        #expect(try await TestServer.provider().echo(request).path == "/echo/admin/-7/true")
    }

    @Test("A colon inside a segment is template text, not a placeholder")
    func colonMidSegment() async throws {
        #expect(try await echo("/echo/models/gemini:generate", []).path == "/echo/models/gemini:generate")
    }

    @Test("Template text outside the allowed set is encoded; existing escapes are kept")
    func templateText() async throws {
        #expect(try await echo("/echo/my files/a%20b", []).path == "/echo/my%20files/a%20b")
    }

    /// Targets are written into a 1 KiB buffer on the stack and move to the heap past it; an
    /// escape (`é` is six bytes, `%C3%A9`) can straddle the edge.
    @Test("Targets around the edge of the stack buffer arrive whole", arguments: [1000, 1015, 1016, 1017, 1018, 1019, 1020, 1024, 1030, 3000])
    func targetsAroundTheBufferEdge(filler: Int) async throws {
        let prefix = "/echo/long/"
        let fill = String(repeating: "a", count: filler - prefix.utf8.count)
        var request = RequestBuilder(method: .get, path: prefix + "{value}")
        request.addParameter("value", value: fill + "é/é")
        request.addQuery("q", value: "é é")
        let echo = try await TestServer.provider().echo(request)
        let expected = prefix + fill + "%C3%A9%2F%C3%A9?q=%C3%A9%20%C3%A9"
        #expect(echo.target == expected)
        #expect(expected.utf8.count > filler)
    }
}

