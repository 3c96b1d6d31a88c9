import Courier
import CourierTestSupport
import Foundation
import Testing

@Suite("Redirects: followed by Courier on every transport, credentials never sent to another origin", .serialized, .timeLimit(.minutes(2)))
struct RedirectTests {
    func credentialed(_ method: HTTPRequest.Method, _ path: String) -> RequestBuilder {
        var request = RequestBuilder(method: method, path: path)
        request.setAuthorization(.bearer("secret"))
        request.addHeader("Cookie", value: "session=1")
        request.addHeader("Proxy-Authorization", value: "Basic eA==")
        request.addHeader("X-Keep", value: "kept")
        return request
    }

    /// `/echo/elsewhere` on another origin of the same scheme: the second plain server, or the
    /// HTTP/1.1-only TLS server.
    func otherOrigin(_ transport: TransportKind) async throws -> String {
        transport == .asyncHTTPClientHTTPS
            ? try await TLSTestServer.baseURL(.http1Only, "/echo/elsewhere")
            : "http://127.0.0.1:\(try await TestServer.otherPort())/echo/elsewhere"
    }

    func encodedQuery(_ target: String) -> String {
        target.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? target
    }

    @Test("A same-origin redirect keeps every header", arguments: TransportKind.withHTTPS)
    func sameOrigin(transport: TransportKind) async throws {
        let seen = try await transport.provider().echo(credentialed(.get, "/redirect/302"))
        #expect(seen.path == "/echo/redirected")
        #expect(seen.header("authorization") == "Bearer secret")
        #expect(seen.header("cookie") == "session=1")
        #expect(seen.header("x-keep") == "kept")
    }

    @Test("A redirect to another origin drops Authorization, Cookie and Proxy-Authorization", arguments: TransportKind.withHTTPS)
    func crossOrigin(transport: TransportKind) async throws {
        let other = try await otherOrigin(transport)
        let seen = try await transport.provider().echo(credentialed(.get, "/redirect/302?to=\(encodedQuery(other))"))
        #expect(seen.path == "/echo/elsewhere")
        #expect(seen.header("authorization") == nil)
        #expect(seen.header("cookie") == nil)
        #expect(seen.header("proxy-authorization") == nil)
        #expect(seen.header("x-keep") == "kept")
    }

    @Test("Headers marked secret are dropped too", arguments: TransportKind.withHTTPS)
    func markedSecret(transport: TransportKind) async throws {
        var provider = try await transport.provider()
        provider.redirects = .follow(dropping: [HTTPField.Name("X-Keep")!])
        let other = try await otherOrigin(transport)
        #expect(try await provider.echo(credentialed(.get, "/redirect/307?to=\(encodedQuery(other))")).header("x-keep") == nil)
    }

    @Test("303 after POST continues as GET without the body; 307 and 308 keep method and body", arguments: TransportKind.withHTTPS)
    func methods(transport: TransportKind) async throws {
        let provider = try await transport.provider()
        var post = credentialed(.post, "/redirect/303")
        post.addField("a", value: 1)
        let seeOther = try await provider.echo(post)
        #expect(seeOther.method == "GET")
        #expect(seeOther.bodyIsEmpty)
        #expect(seeOther.header("content-type") == nil)
        for code in [307, 308] {
            var keep = credentialed(.post, "/redirect/\(code)")
            keep.addField("a", value: 1)
            let seen = try await provider.echo(keep)
            #expect(seen.method == "POST")
            #expect(seen.bodyText == #"{"a":1}"#)
        }
    }

    @Test("A redirect loop stops at the limit and returns the redirect; a limit of 0 returns the first", arguments: TransportKind.withHTTPS)
    func limits(transport: TransportKind) async throws {
        var provider = try await transport.provider()
        let loop = try await provider.send(Request(RequestBuilder(method: .get, path: "/loop"), receiving: .response))
        #expect(loop.statusCode == 302)
        provider.redirects = .follow(limit: 0)
        let first = try await provider.send(Request(RequestBuilder(method: .get, path: "/redirect/301"), receiving: .response))
        #expect(first.statusCode == 301)
        #expect(first.headers[.location] == "/echo/redirected")
        provider.redirects = .none
        let named = try await provider.send(Request(RequestBuilder(method: .get, path: "/redirect/302"), receiving: .response))
        #expect(named.statusCode == 302)
    }
}
