import AsyncHTTPClient
import Courier
import CourierAsyncHTTPClient
import CourierTestSupport
import Foundation
import HTTPTypes
import Testing

@Suite("Proxies: HTTP (CONNECT and absolute form), SOCKS5, credentials, exclusions", .timeLimit(.minutes(1)))
struct ProxyTests {
    let basic = "Basic " + Data("ada:secret".utf8).base64EncodedString()

    func echo(_ provider: Provider, _ path: String) async throws -> Echo {
        var builder = RequestBuilder(method: .get, path: path)
        builder.addHeader(.authorization, value: "Bearer origin-token")
        return try await provider.echo(builder)
    }

    @Test("An https call goes through a CONNECT tunnel; the proxy's credentials never reach the origin")
    func connectTunnel() async throws {
        let proxy = try await TestProxy.start(requiring: basic)
        let port = try await TLSTestServer.port(.good)
        let provider = try await tlsProvider(.good).with(proxy: .http(host: "127.0.0.1", port: proxy.port, username: "ada", password: "secret"))
        let seen = try await echo(provider, "/echo/tunnelled")
        #expect(seen.path == "/echo/tunnelled")
        #expect(seen.header("proxy-authorization") == nil)
        #expect(seen.header("authorization") == "Bearer origin-token")
        #expect(proxy.requests.first == .init(method: "CONNECT", target: "127.0.0.1:\(port)", authorization: basic))
    }

    @Test("An http call goes through the proxy too (AsyncHTTPClient tunnels it with CONNECT); the origin sees no proxy header")
    func plainThroughProxy() async throws {
        let proxy = try await TestProxy.start(requiring: basic)
        let port = try await TestServer.port()
        let provider = try Provider(baseURL: try await TestServer.baseURL(), transport: HTTPClientTransport.shared)
            .with(proxy: .http(host: "127.0.0.1", port: proxy.port, username: "ada", password: "secret"))
        let seen = try await echo(provider, "/echo/forwarded?q=1")
        #expect(seen.target == "/echo/forwarded?q=1")
        #expect(seen.header("proxy-authorization") == nil)
        #expect(proxy.requests.first == .init(method: "CONNECT", target: "127.0.0.1:\(port)", authorization: basic))
    }

    @Test("A proxy that wants credentials and gets none, or wrong ones, is a proxy error: 407 named, not retried")
    func proxyAuthenticationRequired() async throws {
        let proxy = try await TestProxy.start(requiring: basic)
        for credentials in [nil, "wrong"] as [String?] {
            var provider = try await tlsProvider(.good).with(proxy: .http(host: "127.0.0.1", port: proxy.port, username: credentials.map { _ in "ada" }, password: credentials))
            provider.retryPolicy = .init(maxAttempts: 3)
            let error = await #expect(throws: CourierError.self) { try await echo(provider, "/echo/refused") }
            #expect(error?.kind == .proxy, "\(String(describing: error))")
            #expect(error?.message.contains("407") == true)
            #expect((error?.attempts.count ?? 0) <= 1)
        }
    }

    @Test("A SOCKS5 proxy carries https and http calls")
    func socks5() async throws {
        let proxy = try await TestProxy.start(.socks5)
        let tls = try await tlsProvider(.good).with(proxy: .socks5(host: "127.0.0.1", port: proxy.port))
        #expect(try await echo(tls, "/echo/socks").path == "/echo/socks")
        let plain = try Provider(baseURL: try await TestServer.baseURL(), transport: HTTPClientTransport.shared)
            .with(proxy: .socks5(host: "127.0.0.1", port: proxy.port))
        #expect(try await echo(plain, "/echo/socks-plain").path == "/echo/socks-plain")
        #expect(proxy.requests.map(\.method) == ["SOCKS5", "SOCKS5"])
    }

    @Test("Excluded hosts are reached directly")
    func exclusions() async throws {
        let proxy = try await TestProxy.start()
        let provider = try await tlsProvider(.good).with(proxy: Proxy.http(host: "127.0.0.1", port: proxy.port).excluding(["127.0.0.1"]))
        #expect(try await echo(provider, "/echo/direct").path == "/echo/direct")
        #expect(proxy.requests.isEmpty)
        #expect(Proxy.http(host: "p", port: 1).excluding([".example.com"]).excludes("api.example.com"))
        #expect(Proxy.http(host: "p", port: 1).excluding(["example.com"]).excludes("example.com"))
        #expect(!Proxy.http(host: "p", port: 1).excluding(["example.com"]).excludes("badexample.com"))
        #expect(Proxy.http(host: "p", port: 1).excluding(["*"]).excludes("anything"))
        // NO_PROXY's other spellings: `*.`, a trailing dot, a port, an IPv6 address in brackets.
        let spelled = Proxy.http(host: "p", port: 1).excluding(["*.corp", "intranet.example.", "build.example:8443", "[::1]", "10.0.0.7:80"])
        #expect(spelled.excludes("git.corp") && spelled.excludes("intranet.example") && spelled.excludes("www.intranet.example."))
        #expect(spelled.excludes("build.example") && spelled.excludes("::1") && spelled.excludes("10.0.0.7"))
        #expect(!spelled.excludes("corp.example") && !spelled.excludes("example") && !spelled.excludes("10.0.0.70"))
    }

    @Test("The environment is read only when asked: HTTPS_PROXY, HTTP_PROXY, ALL_PROXY and NO_PROXY")
    func environment() throws {
        let https = try Proxy.fromEnvironment(["HTTPS_PROXY": "http://ada:s%40cret@proxy.local:3128", "NO_PROXY": "localhost, .internal"])
        #expect(https?.kind == .http)
        #expect(https?.host == "proxy.local")
        #expect(https?.port == 3128)
        #expect(https?.username == "ada")
        #expect(https?.excludes("db.internal") == true)
        #expect(https?.description.contains("s@cret") == false)
        #expect(try Proxy.fromEnvironment(["HTTP_PROXY": "proxy:8080"], scheme: "http")?.port == 8080)
        #expect(try Proxy.fromEnvironment(["ALL_PROXY": "socks5://127.0.0.1:1081"])?.kind == .socks5)
        #expect(try Proxy.fromEnvironment([:]) == nil)
        let bad = #expect(throws: CourierError.self) { try Proxy.fromEnvironment(["HTTPS_PROXY": "ftp://proxy"]) }
        #expect(bad?.kind == .proxy)
        #expect(bad?.message.contains("HTTPS_PROXY") == true)
    }

    @Test("URLSession and a client of your own refuse a proxy when the provider is made")
    func refused() async throws {
        let urlSession = await #expect(throws: CourierError.self) {
            try Provider(baseURL: "https://127.0.0.1", transport: Provider.urlSessionTransport).with(proxy: .http(host: "127.0.0.1", port: 1))
        }
        #expect(urlSession?.kind == .proxy)
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: .courierDefault)
        let own = await #expect(throws: CourierError.self) {
            try Provider(baseURL: "https://127.0.0.1", transport: HTTPClientTransport(client: client)).with(proxy: .http(host: "127.0.0.1", port: 1))
        }
        try await client.shutdown()
        #expect(own?.kind == .proxy)
    }
}

@Suite("HTTP/2 is a setting", .timeLimit(.minutes(1)))
struct HTTP2SettingTests {
    @Test("allowsHTTP2 = false keeps AsyncHTTPClient on HTTP/1.1 against a server that offers HTTP/2; URLSession refuses it")
    func http1Only() async throws {
        var provider = try await tlsProvider(.good)
        #expect(provider.allowsHTTP2)
        provider.allowsHTTP2 = false
        let seen = try await provider.send(Request(RequestBuilder(method: .get, path: "/protocol"), receiving: .json(ConnectionSeen.self)))
        #expect(!seen.http2)
        var urlSession = Provider(baseURL: "https://127.0.0.1", transport: Provider.urlSessionTransport)
        urlSession.allowsHTTP2 = false
        let error = await #expect(throws: CourierError.self) {
            try await urlSession.send(Request(RequestBuilder(method: .get, path: "/protocol"), receiving: .json(ConnectionSeen.self)))
        }
        #expect(error?.message.contains("HTTP/1.1") == true)
    }
}
