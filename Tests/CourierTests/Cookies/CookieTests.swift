import Courier
import CourierTestSupport
import Foundation
import Testing

@Suite("Cookies: explicit on requests, readable on responses, kept only by a jar", .timeLimit(.minutes(2)))
struct CookieTests {
    @Test("By default no transport keeps cookies: a later request carries none", arguments: TransportKind.allCases)
    func statelessByDefault(transport: TransportKind) async throws {
        let provider = try await transport.provider()
        _ = try await provider.send(Request(RequestBuilder(method: .get, path: "/login"), receiving: .response))
        #expect(try await provider.echo(RequestBuilder(method: .get, path: "/echo/after")).header("cookie") == nil)
    }

    @Test("A jar keeps cookies per path, drops Secure ones over http, expired and removed ones", arguments: TransportKind.allCases)
    func jar(transport: TransportKind) async throws {
        let jar = CookieJar()
        let provider = try await transport.provider().with(cookieJar: jar)
        _ = try await provider.send(Request(RequestBuilder(method: .get, path: "/login"), receiving: .response))
        #expect(Set(jar.cookies.map(\.name)) == ["session", "scoped", "secure"])
        #expect(try await provider.echo(RequestBuilder(method: .get, path: "/echo/other")).header("cookie") == "session=s-1")
        #expect(try await provider.echo(RequestBuilder(method: .get, path: "/echo/scoped/x")).header("cookie") == "session=s-1; scoped=yes")

        var explicit = RequestBuilder(method: .get, path: "/echo/explicit")
        explicit.addHeader(.cookie, value: "mine=1")
        #expect(try await provider.echo(explicit).header("cookie") == "mine=1; session=s-1")

        _ = try await provider.send(Request(RequestBuilder(method: .get, path: "/logout"), receiving: .response))
        #expect(try await provider.echo(RequestBuilder(method: .get, path: "/echo/other")).header("cookie") == nil)
    }

    @Test("A jar emptied with removeAll sends no cookie until a server sets one again", arguments: TransportKind.allCases)
    func removeAll(transport: TransportKind) async throws {
        let jar = CookieJar()
        let provider = try await transport.provider().with(cookieJar: jar)
        _ = try await provider.send(Request(RequestBuilder(method: .get, path: "/login"), receiving: .response))
        #expect(try await provider.echo(RequestBuilder(method: .get, path: "/echo/other")).header("cookie") == "session=s-1")
        jar.removeAll()
        #expect(jar.cookies.isEmpty)
        #expect(try await provider.echo(RequestBuilder(method: .get, path: "/echo/other")).header("cookie") == nil)
        _ = try await provider.send(Request(RequestBuilder(method: .get, path: "/login"), receiving: .response))
        #expect(try await provider.echo(RequestBuilder(method: .get, path: "/echo/other")).header("cookie") == "session=s-1")
    }

    @Test("Response cookies are read from every Set-Cookie header, joined or not", arguments: TransportKind.allCases)
    func responseCookies(transport: TransportKind) async throws {
        let response = try await transport.provider().send(Request(RequestBuilder(method: .get, path: "/login"), receiving: .response))
        #expect(response.cookies.map(\.name) == ["session", "scoped", "secure", "gone"])
        #expect(response.cookies[2].attributes["Secure"] == "")
        #expect(response.cookies.map(\.isSecure) == [false, false, true, false])
        #expect(response.cookies.map(\.isHTTPOnly) == [true, false, false, false])
        #expect(response.cookies[1].attributes["Path"] == "/echo/scoped")
    }

    @Test("A jar reads a server's two-digit Expires years: 50 is 2050, 60 in the preferred form 2060, 70 is 1970", arguments: TransportKind.allCases)
    func twoDigitYearExpires(transport: TransportKind) async throws {
        let name = scriptName("two-digit-expires", transport)
        FaultServer.script(name, [.answer(status: 200, headers: [
            ("Set-Cookie", "long=1; Path=/; Expires=Friday, 21-Oct-50 07:28:00 GMT"),
            ("Set-Cookie", "cut=2; Path=/; Expires=Thu, 21 Oct 60 07:28:00 GMT"),
            ("Set-Cookie", "old=3; Path=/; Expires=Thu, 01-Jan-70 00:00:01 GMT"),
        ])])
        let jar = CookieJar()
        let provider = try await transport.faultProvider(idle: .seconds(5)).with(cookieJar: jar)
        _ = try await provider.send(Request(.get, "/script/\(name)", receiving: .response))
        #expect(Set(jar.cookies.map(\.name)) == ["long", "cut"])
    }

    @Test("A jar sees every redirect hop: a cookie set on a login's 302 reaches the page and later requests", arguments: TransportKind.allCases)
    func jarOnRedirectHops(transport: TransportKind) async throws {
        let jar = CookieJar()
        let provider = try await transport.provider().with(cookieJar: jar)
        let home = try await provider.send(Request(.post, "/login-redirect", receiving: .json(Echo.self)).body(.form(["user": "ada"])))
        #expect(home.path == "/echo/home")
        #expect(home.header("cookie") == "session=from-redirect")
        #expect(jar.cookies.map(\.name) == ["session"])
        #expect(try await provider.echo(RequestBuilder(method: .get, path: "/echo/later")).header("cookie") == "session=from-redirect")
    }
}
