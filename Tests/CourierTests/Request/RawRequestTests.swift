import Courier
import Foundation
import HTTPTypes
import OpenAPIRuntime
import Testing

@Suite("A raw request is a value")
struct RawRequestTests {
    @Test("A copy changed part by part leaves the original as it was, and the original changed leaves the copy")
    func copiesChangeApart() async throws {
        let base = try #require(URL(string: "http://127.0.0.1:1"))
        let original = RawRequest(
            head: HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/a", headerFields: [.accept: "application/json"]),
            body: HTTPBody("first"), baseURL: base, operationID: "first"
        )
        var copy = original
        copy.method = .post
        copy.path = "/b"
        copy.headers[.accept] = "text/plain"
        copy.headers.append(HTTPField(name: .userAgent, value: "copy"))
        copy.body = HTTPBody("second")
        copy.baseURL = try #require(URL(string: "http://127.0.0.1:2"))
        copy.operationID = "second"
        copy.streamsResponse = true

        #expect(original.method == .get)
        #expect(original.path == "/a")
        #expect(original.headers[.accept] == "application/json")
        #expect(original.headers[.userAgent] == nil)
        #expect(original.baseURL == base)
        #expect(original.operationID == "first")
        #expect(original.streamsResponse == false)
        var first = original
        #expect(try await first.collectBody() == Data("first".utf8))

        #expect(copy.method == .post)
        #expect(copy.path == "/b")
        #expect(copy.headers[.accept] == "text/plain")
        #expect(copy.headers[.userAgent] == "copy")
        #expect(copy.baseURL.absoluteString == "http://127.0.0.1:2")
        #expect(copy.operationID == "second")
        #expect(copy.streamsResponse)
        #expect(try await copy.collectBody() == Data("second".utf8))

        // And the other way: the original changed after the copy was made.
        var changed = original
        let kept = changed
        changed.headers[.accept] = nil
        #expect(kept.headers[.accept] == "application/json")
        #expect(changed.headers[.accept] == nil)
    }
}
